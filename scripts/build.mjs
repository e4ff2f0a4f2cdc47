// Builds the CLI into dist/ with esbuild. The CLI itself is one CommonJS bundle, dist/roleflow.cjs
// (from src/process.ts), that dist/bin.cjs runs through a V8 code cache (src/code-cache.ts): on
// Node 20 only a script, not an ES module, can reuse compiled code between runs, and reading one
// file with its cache is quicker than loading modules. Dynamic imports inside it stay lazy (esbuild
// evaluates such a module on first import), so a command still runs only the code it needs. The
// embedded tenant is also built as an ES module for scripts (bench/) that import it. Type checking is `tsc --noEmit` (npm test runs it).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { precompiledModule } from './standalone-validators.mjs';

const root = new URL('..', import.meta.url);
const outdir = new URL('dist', root).pathname;
rmSync(outdir, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  // ws's optional native helpers are not installed; ws falls back to JavaScript without them.
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'none',
  logLevel: 'warning',
};

/** The schemas as ajv standalone validators: no command compiles a schema of schemas/ at start-up. */
const standaloneValidators = (form) => ({
  name: 'standalone-validators',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]precompiled-schemas\.ts$/ }, () => ({
      contents: precompiledModule(new URL('schemas/', root), form),
      loader: 'js',
      resolveDir: root.pathname,
    }));
  },
});

/** In the CLI, precompiled-schemas.ts is what the vendored validators script exports. */
const validatorsVendored = {
  name: 'validators-vendored',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]precompiled-schemas\.ts$/ }, () => ({
      contents: `export { precompiled, validatorOf, draft07MetaSchema } from 'roleflow:validators';`,
      loader: 'js',
    }));
  },
};

await build({
  ...common,
  entryPoints: { 'emulator/index': 'src/emulator/index.ts' },
  outdir,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require(); give them one in ESM.
  banner: { js: "import { createRequire as __roleflowCreateRequire } from 'node:module'; const require = __roleflowCreateRequire(import.meta.url);" },
  // Without a code cache, the engine reads past a string far quicker than past functions.
  plugins: [standaloneValidators('strings')],
});

/**
 * Code bundled on its own, read only by a run that uses it: undici and ws by the commands that
 * talk to a tenant; yaml, ajv and the schemas' generated validators (together half the CLI's code)
 * by a run that parses a file or compiles a schema, which a run whose files are all in the parse
 * cache does not. A package listed in `lazy` is loaded when one of the names it exports is first
 * read, not when a module of the CLI that imports it starts (code-cache.ts); ws exports a class,
 * which a stand-in cannot be, so it is loaded when first required.
 */
const vendored = { undici: 'vendor/undici.cjs', ws: 'vendor/ws.cjs', yaml: 'vendor/yaml.cjs', ajv: 'vendor/ajv.cjs', 'roleflow:validators': 'vendor/validators.cjs' };
const requireHere = createRequire(import.meta.url);
const lazy = {
  undici: Object.keys(requireHere('undici')),
  yaml: Object.keys(requireHere('yaml')),
  ajv: Object.keys(requireHere('ajv')),
  'roleflow:validators': ['precompiled', 'validatorOf', 'draft07MetaSchema'],
};
/** Only `id` itself is left to the run's require: its subpaths (ajv's runtime helpers the validators use) are bundled. */
const externalExactly = (ids) => ({
  name: 'external-exactly',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`) }, (args) => ({ path: args.path, external: true }));
  },
});
/**
 * undici's cookie helpers, loaded with the rest, brand-check Node's own `globalThis.Headers` too;
 * reading that global makes Node load its built-in copy of undici (25-40 ms of every command that
 * talks to a tenant). roleflow never calls the cookie helpers: they check undici's own Headers only.
 */
const vendoredDefines = { undici: { 'globalThis.Headers': 'undefined' } };
for (const [name, file] of Object.entries(vendored)) {
  const outfile = `${outdir}/${file}`;
  if (name === 'roleflow:validators') {
    // The generated validators, with ajv's runtime helpers they require; ajv itself (for a schema
    // not generated here) is the vendored one. Validators written as functions: the code cache keeps them.
    await build({ ...common, stdin: { contents: precompiledModule(new URL('schemas/', root), 'functions'), resolveDir: root.pathname, loader: 'js' }, outfile, format: 'cjs', plugins: [externalExactly(['ajv'])] });
    continue;
  }
  await build({ ...common, stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root.pathname }, outfile, format: 'cjs', define: vendoredDefines[name] ?? {} });
}

const cli = await build({
  ...common,
  metafile: true,
  entryPoints: ['src/process.ts'],
  outfile: `${outdir}/roleflow.cjs`,
  format: 'cjs',
  // The one `import.meta.url` (files/package-root.ts) as the bundle's own URL.
  define: { 'import.meta.url': '__roleflowBundleUrl' },
  // The directive first: esbuild's own "use strict" comes after the banner, where it is none, and
  // the CLI's sources are ES modules, strict wherever else they run (vitest).
  banner: { js: "'use strict'; const __roleflowBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // precompiled-schemas.ts is the vendored validators (their stand-in: they load on first use).
  plugins: [externalExactly(Object.keys(vendored)), validatorsVendored],
});

// The bundles are made pure ASCII, so bin.cjs reads them as latin1, many times quicker than
// decoding UTF-8 (a tenth of a warm start). esbuild escapes strings already; what is left (a few
// comments, a regex class) takes \u escapes, which mean the same there.
// esbuild turns a dynamic import of bundled code into a lazy require; one of anything else stays an
// `import()`, which Node 20 cannot run in a script compiled from a code cache.
// A package loaded through a stand-in (getters for its names) must be imported by name: a default
// or namespace import makes esbuild wrap it (`__toESM`), and the stand-in is no function or class.
const cliText = readFileSync(`${outdir}/roleflow.cjs`, 'utf8');
const wrapped = Object.keys(lazy).filter((id) => cliText.includes(`__toESM(require(${JSON.stringify(id)})`));
if (wrapped.length > 0) throw new Error(`build: ${wrapped.join(', ')} imported by default or as a namespace in the CLI; import the names it exports`);
const dynamic = Object.values(cli.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.kind === 'dynamic-import' && i.external);
if (dynamic.length > 0) throw new Error(`build: dynamic import() of ${dynamic.map((i) => i.path).join(', ')} left in dist/roleflow.cjs; import it statically`);

// Each is also written inside Node's CommonJS wrapper, `(function (exports, require, module,
// __filename, __dirname) {…})`, which bin.cjs would otherwise add at every start: V8 then copies
// the concatenation into one flat string: as much fresh memory again as the bundle's size, on
// every start (~450 page faults for the CLI's bundle, each slow on a virtual machine).
const hash = createHash('sha256');
for (const file of ['roleflow.cjs', ...Object.values(vendored)]) {
  const path = `${outdir}/${file}`;
  const ascii = readFileSync(path, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const text = `(function (exports, require, module, __filename, __dirname) {${ascii}\n})`;
  writeFileSync(path, text);
  hash.update(text);
}
// The entry is CommonJS too: an ES module entry makes Node start its ES module loader, and give
// every built-in module it imports an ES module face, reading all of its exports (for node:fs,
// loading its streams): ~14M instructions and 100 page faults of every command.
await build({
  ...common,
  entryPoints: { bin: 'src/bin.ts' },
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  define: {
    ROLEFLOW_BUILD: JSON.stringify(hash.digest('hex').slice(0, 16)),
    ROLEFLOW_VENDORED: JSON.stringify(Object.fromEntries(Object.entries(vendored).map(([id, file]) => [id, lazy[id] ? { file, exports: lazy[id] } : { file }]))),
  },
});
