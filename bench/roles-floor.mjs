// The floor for `plan`: the unavoidable input work with nothing but Node built-ins, as a process
// like the CLI. `node roles-floor.mjs DIR BASE_URL` (token in ROLEFLOW_TOKEN) reads every *.md file
// of DIR with readFileSync (synchronously, as the CLI reads, though with one call a file where the CLI's
// bounded read takes three), fetches the tenant's Role list once with node:http,
// parses it, and prints how many of each it saw (the bench checks). It imports nothing from
// node_modules: a bare script pays no module loading the bundled CLI would not pay either.
import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';

const [dir, baseUrl] = process.argv.slice(2);

const names = readdirSync(dir).filter((name) => name.endsWith('.md'));
const texts = names.map((name) => readFileSync(join(dir, name), 'utf8'));

const roles = await new Promise((resolve, reject) => {
  const req = get(`${baseUrl}/admin/roles/get`, { headers: { authorization: `Bearer ${process.env.ROLEFLOW_TOKEN}`, accept: 'application/json' } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      if (res.statusCode !== 200) return reject(new Error(`GET /admin/roles/get: status ${res.statusCode}`));
      resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
    res.on('error', reject);
  });
  req.on('error', reject);
});
console.log(JSON.stringify({ files: texts.length, roles: roles.length }));
