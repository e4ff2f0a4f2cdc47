// The emulator in its own process for flows.bench.mjs, serving the bench's flows (flows-fixture.mjs),
// so neither the CLI under test nor the floor shares an event loop with the server. Reports its URLs
// and token over IPC only: the token is never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { FLOWS } from './flows-fixture.mjs';
import { serveChildProtocol } from './lib.mjs';

const emulator = await startEmulator({ flows: FLOWS });
serveChildProtocol({ baseUrl: emulator.baseUrl, wsUrl: emulator.wsUrl, token: emulator.token }, () => emulator.close());
