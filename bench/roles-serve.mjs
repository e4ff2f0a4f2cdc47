// The emulator in its own process for the Roles-as-code benches, so the CLI under test and the load
// loops never share a core's event loop with the server. `node roles-serve.mjs [DATAFILE] [LATENCY_MS]`:
// DATAFILE ('-' for none) preloads the tenant's Roles. The token goes over IPC only, never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { serveChildProtocol } from './lib.mjs';

const [dataFile = '-', latency = '0'] = process.argv.slice(2);
const emulator = await startEmulator({
  ...(dataFile === '-' ? {} : { dataFile }),
  latencyMs: Number(latency),
});
serveChildProtocol({ baseUrl: emulator.baseUrl, token: emulator.token }, () => emulator.close());
