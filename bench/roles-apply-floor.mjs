// The floor for `apply`, as a process like the CLI: `node roles-apply-floor.mjs BASE_URL COUNT
// CONCURRENCY` (token in ROLEFLOW_TOKEN) sends COUNT create requests from a bare undici loop at
// CONCURRENCY and prints how many failed. Node's start-up and undici's import are part of any
// script that sends these requests, so the floor pays them as roleflow does.
import { loadPool, roleFields, runLoad } from './lib.mjs';

const [baseUrl, count, concurrency] = process.argv.slice(2);
const pool = loadPool(baseUrl, Number(concurrency));
const headers = { authorization: `Bearer ${process.env.ROLEFLOW_TOKEN}`, 'content-type': 'application/json' };
const run = await runLoad(pool, {
  count: Number(count),
  concurrency: Number(concurrency),
  makeRequest: (i) => ({ method: 'POST', path: '/admin/roles/create', headers, body: JSON.stringify(roleFields(i)) }),
});
await pool.close();
console.log(JSON.stringify({ errors: run.errors, firstError: run.firstError }));
