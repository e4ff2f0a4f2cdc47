// The emulator in its own process for the flow test benches, serving the bench's flows
// (flows-fixture.mjs), so neither the CLI under test nor the floor shares an event loop with the
// server. `node flows-serve.mjs [LATENCY_MS]`: every HTTP answer that late (default 0). Reports its
// URLs and token over IPC only: the token is never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { FLOWS } from './flows-fixture.mjs';
import { serveChildProtocol } from './lib.mjs';

const emulator = await startEmulator({ flows: FLOWS, latencyMs: Number(process.argv[2] ?? 0) });
serveChildProtocol({ baseUrl: emulator.baseUrl, wsUrl: emulator.wsUrl, token: emulator.token }, () => emulator.close());
