// The emulator for emulator-creates, in its own process. `node creates-serve.mjs PRELOAD DATAFILE|-`:
// with a DATAFILE (a tenant of PRELOAD Roles written by the bench) it persists to it (`--data`);
// with '-' it holds the same PRELOAD Roles in memory only, created through its own API before it
// reports ready. The token goes over IPC only, never printed.
import { startEmulator } from '../dist/emulator/index.js';
import { roleFields, serveChildProtocol } from './lib.mjs';

const [preload = '0', dataFile = '-'] = process.argv.slice(2);
const emulator = await startEmulator(dataFile === '-' ? {} : { dataFile });
if (dataFile === '-') {
  const headers = { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' };
  for (let i = 0; i < Number(preload); i++) {
    const res = await fetch(`${emulator.baseUrl}/admin/roles/create`, { method: 'POST', headers, body: JSON.stringify(roleFields(i)) });
    if (res.status !== 200) throw new Error(`preload: status ${res.status}`);
    await res.arrayBuffer();
  }
}
serveChildProtocol({ baseUrl: emulator.baseUrl, token: emulator.token, roles: emulator.roles().length }, () => emulator.close());
