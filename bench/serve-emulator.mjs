// The emulator in its own process, so the load generator's CPU is not the server's (bench/lib.mjs:
// startServerChild). Reports its base URL and token over IPC only: the token is never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { serveChildProtocol } from './lib.mjs';

const emulator = await startEmulator();
serveChildProtocol({ baseUrl: emulator.baseUrl, token: emulator.token }, () => emulator.close());
