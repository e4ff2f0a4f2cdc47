// The JSON Schemas of schemas/ as ajv standalone validators, generated at build time (build.mjs
// puts this module in place of src/core/text/precompiled-schemas.ts), so no command compiles a schema
// at start-up. The ajv options are src/core/text/schema.ts's; test/core/schema-standalone.test.ts proves
// the generated validators give exactly the errors of compiling the schemas at run time.
import { Ajv } from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import standaloneCode from 'ajv/dist/standalone/index.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true };

/**
 * An ajv with src/core/text/meta-schema.ts's draft-07 meta-schema: ajv's, less the `uniqueItems` on
 * `enum` it checks in quadratic time; `linearErrors` is meta-schema.ts's too (the same lines: this
 * script runs before any build).
 */
function linearErrors(code) {
  return code.replace(/vErrors = vErrors === null \? ([\w.]+) : vErrors\.concat\(\1\)/g, 'vErrors = vErrors === null ? $1 : ((a, b) => { for (const e of b) a.push(e); return a; })(vErrors, $1)');
}

function linearAjv(options) {
  const { uniqueItems: _quadratic, ...enumKeyword } = draft07.properties.enum;
  const ajv = new Ajv({ ...options, meta: false });
  ajv.addMetaSchema({ ...draft07, properties: { ...draft07.properties, enum: enumKeyword } }, 'http://json-schema.org/draft-07/schema', false);
  return ajv;
}

/** `{ key, code }` per schema (those named in `only`, when given): `key` is the schema's JSON text (how schema.ts finds it), `code` a CommonJS module. */
export function standaloneValidators(schemasDir, only) {
  return readdirSync(schemasDir)
    .filter((f) => f.endsWith('.schema.json') && (only === undefined || only.has(f.slice(0, -'.schema.json'.length))))
    .sort()
    .map((f) => {
      const schema = JSON.parse(readFileSync(new URL(f, schemasDir), 'utf8'));
      return { key: JSON.stringify(schema), code: standaloneFor(schema) };
    });
}

/** The standalone code (CommonJS) of one schema, compiled as schema.ts compiles it (without `$id`). */
export function standaloneFor(schema) {
  const ajv = linearAjv({ ...AJV_OPTIONS, code: { source: true } });
  const { $id: _id, ...anonymous } = schema;
  return linearErrors(standaloneCode(ajv, ajv.compile(anonymous)));
}

/**
 * The schemas the code under `srcDir` validates with — `loadSchema('NAME')`, or an import of
 * `schemas/NAME.schema.json` — by name. The others (those of what commands print, for scripts and
 * editors) are never compiled by roleflow, so the bundle need not hold their validators.
 */
export function schemasLoadedBy(srcDir) {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const url = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
      if (entry.isDirectory()) walk(url);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(url, 'utf8');
        for (const m of text.matchAll(/loadSchema\('([a-z0-9-]+)'\)|schemas\/([a-z0-9-]+)\.schema\.json' with/g)) names.add(m[1] ?? m[2]);
      }
    }
  };
  walk(srcDir);
  return names;
}

/**
 * The standalone code of ajv's draft-07 meta-schema: the validator ajv's `validateSchema` uses to
 * check a user's schema in src/core/flows/checks/schema-check.ts, made by an ajv with its options.
 */
export function draft07MetaCode() {
  const ajv = linearAjv({ ...AJV_OPTIONS, addUsedSchema: false, code: { source: true } });
  return linearErrors(standaloneCode(ajv, ajv.getSchema(ajv.defaultMeta())));
}

/**
 * What replaces src/core/text/precompiled-schemas.ts in the bundle: `module`, an ES module, and
 * `files`, the validators it reads from the folder `validators/` beside it, which the build writes
 * there (build.mjs). A command reads and compiles (`new Function`) only the validators it uses, when
 * it first uses each, most commands using one or two of the schemas; each file holds the schema's
 * JSON text too, and a schema whose text differs (a test's variant with a schema's `$id`) is
 * compiled at run time. The ajv runtime modules the code requires are bundled (each `require`
 * below names its module); ajv itself is required only to compile a schema not generated here
 * (the emulator's flows file).
 */
export function precompiledModule(schemasDir, only) {
  const validators = standaloneValidators(schemasDir, only).map(({ key, code }) => ({ id: JSON.parse(key).$id, key, code }));
  const meta = draft07MetaCode();
  const ids = [...new Set([...validators.map((v) => v.code), meta].flatMap((code) => [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])))];
  const cases = ids.map((id) => `    case ${JSON.stringify(id)}: return require(${JSON.stringify(id)});`).join('\n');
  const fileOf = (id) => `${new URL(id).pathname.split('/').pop().replace(/\.schema\.json$/, '')}.json`;
  const files = new Map([...validators.map(({ id, key, code }) => [fileOf(id), JSON.stringify({ schema: key, code })]), ['draft-07.json', JSON.stringify({ code: meta })]]);
  const entries = validators.map(({ id }) => `  [${JSON.stringify(id)}, ${JSON.stringify(fileOf(id))}],`);
  const module = `import { readFileSync } from 'node:fs';
function runtime(id) {
  switch (id) {
${cases}
    default: throw new Error(\`no ajv runtime module \${id}\`);
  }
}
/** The content of validators/FILE: the schema's JSON text and its validator's code. */
function read(file) {
  return JSON.parse(readFileSync(new URL(\`./validators/\${file}\`, import.meta.url), 'utf8'));
}
function standalone(code) {
  const module = { exports: {} };
  new Function('module', 'require', code)(module, runtime);
  return module.exports;
}
/** The file of each generated validator, by its schema's \`$id\`. */
export const precompiled = new Map([
${entries.join('\n')}
]);
let ajv;
/** The validator of a schema: generated when it is one of schemas/, else compiled (ajv is loaded only then). */
export function validatorOf(schema) {
  const file = precompiled.get(schema.$id);
  const made = file === undefined ? undefined : read(file);
  if (made !== undefined && made.schema === JSON.stringify(schema)) return standalone(made.code);
  const { Ajv } = require("ajv");
  ajv ??= new Ajv(${JSON.stringify(AJV_OPTIONS)});
  const { $id: _id, ...anonymous } = schema;
  return ajv.compile(anonymous);
}
export const draft07MetaSchema = () => standalone(read('draft-07.json').code);
`;
  return { module, files };
}

/**
 * The esbuild plugin that puts the generated module in place of src/core/text/precompiled-schemas.ts,
 * for the package at `root` (a file URL); `writeFiles(metafile)` then writes the validators into
 * validators/ beside each output holding the module (the build needs `metafile: true`).
 */
export function standaloneValidatorsPlugin(root) {
  const precompiled = precompiledModule(new URL('schemas/', root), schemasLoadedBy(new URL('src/', root)));
  const plugin = {
    name: 'standalone-validators',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]core[\\/]text[\\/]precompiled-schemas\.ts$/ }, () => ({
        contents: precompiled.module,
        loader: 'js',
        resolveDir: fileURLToPath(root),
      }));
    },
  };
  const writeFiles = (metafile) => {
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      if (!('src/core/text/precompiled-schemas.ts' in inputs)) continue;
      const dir = join(dirname(fileURLToPath(new URL(output, root))), 'validators');
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of precompiled.files) writeFileSync(join(dir, file), text);
    }
  };
  return { plugin, writeFiles };
}
