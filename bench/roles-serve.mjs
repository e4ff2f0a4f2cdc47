// The emulator in its own process for the Roles-as-code benches, so the CLI under test and the load
// loops never share a core's event loop with the server. `node roles-serve.mjs [DATAFILE]
// [LATENCY_MS] [RATE_PER_SECOND]`: DATAFILE ('-' for none) preloads the tenant's Roles; a rate
// ('-' for none) turns on the emulator's rate limit. A probe also gives the count of answers by
// status (`statuses`). The token goes over IPC only, never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { serveChildProtocol } from './lib.mjs';

const [dataFile = '-', latency = '0', rate = '-'] = process.argv.slice(2);
const emulator = await startEmulator({
  ...(dataFile === '-' ? {} : { dataFile }),
  ...(rate === '-' ? {} : { rateLimit: { perSecond: Number(rate) } }),
  latencyMs: Number(latency),
});
serveChildProtocol({ baseUrl: emulator.baseUrl, token: emulator.token }, () => emulator.close(), () => {
  const statuses = {};
  for (const { status } of emulator.requests()) statuses[status] = (statuses[status] ?? 0) + 1;
  return { statuses };
});
