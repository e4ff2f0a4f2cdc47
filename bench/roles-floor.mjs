// The floor for `plan`: the same input work with nothing of roleflow in it. `node roles-floor.mjs
// DIR BASE_URL sync|async` (token in ROLEFLOW_TOKEN) reads every *.md file of DIR, then fetches the
// tenant's Role list once with undici and parses it, and prints how many of each it saw (the bench
// checks). `sync` reads with readFileSync, the quickest way on a local disk; `async` reads as the
// CLI does, fs.promises with 16 reads in flight, to show what that choice costs.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';

const [dir, baseUrl, reads] = process.argv.slice(2);
const READS_AT_ONCE = 16;

const names = (await readdir(dir)).filter((name) => name.endsWith('.md'));
const texts = new Array(names.length);
if (reads === 'sync') {
  for (let i = 0; i < names.length; i++) texts[i] = readFileSync(join(dir, names[i]), 'utf8');
} else {
  let next = 0;
  const reader = async () => {
    while (next < names.length) {
      const i = next++;
      texts[i] = await readFile(join(dir, names[i]), 'utf8');
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
}

const { statusCode, body } = await request(`${baseUrl}/admin/roles/get`, {
  headers: { authorization: `Bearer ${process.env.ROLEFLOW_TOKEN}`, accept: 'application/json' },
});
const roles = JSON.parse(await body.text());
if (statusCode !== 200) throw new Error(`GET /admin/roles/get: status ${statusCode}`);
console.log(JSON.stringify({ files: texts.length, roles: roles.length }));
