// The libraries' own share of `roleflow validate` of this repository (startup.bench.mjs bundles
// this file with esbuild, as the CLI is bundled, and runs it cold): the files validate reads,
// parsed by the libraries roleflow uses for them and nothing of roleflow's. yaml parses every flow
// test file, every role file's front-matter and the embedded tenant's flows file; ajv (draft-07,
// the options roleflow checks values with) compiles every JSON Schema a flow test names or holds;
// re2js compiles every `matches:` and every schema `pattern`. It prints what it did, which the
// bench checks, so that a floor that skipped the work would fail.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { RE2JS } from 're2js';
import { parse } from 'yaml';

const root = process.cwd();
const counts = { yaml: 0, schemas: 0, regexes: 0 };
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, addUsedSchema: false });

const parsed = (text) => {
  counts.yaml++;
  return parse(text);
};

/** Every schema and pattern in a flow test file's value (a schema named by path is read beside the file). */
function walk(value, file) {
  if (Array.isArray(value)) return value.forEach((item) => walk(item, file));
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'schema' && typeof inner === 'string') compile(JSON.parse(readFileSync(join(dirname(file), inner), 'utf8')));
    else if (key === 'schema' && typeof inner === 'object' && inner !== null) compile(inner);
    else if (key === 'matches' && typeof inner === 'string') regex(inner);
    else walk(inner, file);
  }
}
function compile(schema) {
  const { $id: _id, ...anonymous } = schema;
  ajv.compile(anonymous);
  counts.schemas++;
  patterns(anonymous);
}
function patterns(schema) {
  if (Array.isArray(schema)) return schema.forEach(patterns);
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, inner] of Object.entries(schema)) {
    if (key === 'pattern' && typeof inner === 'string') regex(inner);
    else patterns(inner);
  }
}
function regex(source) {
  RE2JS.compile(source);
  counts.regexes++;
}

for (const name of readdirSync(join(root, 'flows'))) {
  if (!name.endsWith('.yaml')) continue;
  const file = join(root, 'flows', name);
  walk(parsed(readFileSync(file, 'utf8')), file);
}
for (const name of readdirSync(join(root, 'roles'))) {
  if (!name.endsWith('.md') || name === 'README.md') continue;
  const text = readFileSync(join(root, 'roles', name), 'utf8');
  parsed(/^---\n([\s\S]*?)\n---\n/.exec(text)[1]);
}
parsed(readFileSync(join(root, 'emulator-flows.yaml'), 'utf8'));
process.stdout.write(`${JSON.stringify(counts)}\n`);
