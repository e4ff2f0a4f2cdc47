// Builds the CLI into dist/ with esbuild. The CLI itself is one CommonJS bundle, dist/roleflow.cjs
// (from src/process.ts), that dist/bin.cjs runs through a V8 code cache (src/code-cache.ts): on
// Node 20 only a script, not an ES module, can reuse compiled code between runs, and reading one
// file with its cache is quicker than loading modules. Dynamic imports inside it stay lazy (esbuild
// evaluates such a module on first import), so a command still runs only the code it needs. The
// embedded tenant is also built as an ES module for scripts (bench/) that import it. Type checking is `tsc --noEmit` (npm test runs it).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Packages bundled on their own, read by the commands that talk to a tenant only (undici is a third of the CLI's code). */
const vendored = { undici: 'vendor/undici.cjs', ws: 'vendor/ws.cjs' };
/**
 * undici's cookie helpers, loaded with the rest, brand-check Node's own `globalThis.Headers` too;
 * reading that global makes Node load its built-in copy of undici (25-40 ms of every command that
 * talks to a tenant). roleflow never calls the cookie helpers: they check undici's own Headers only.
 */
const vendoredDefines = { undici: { 'globalThis.Headers': 'undefined' }, ws: {} };
for (const [name, file] of Object.entries(vendored)) {
  await build({ ...common, stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root.pathname }, outfile: `${outdir}/${file}`, format: 'cjs', define: vendoredDefines[name] });
}

const cli = await build({
  ...common,
  metafile: true,
  external: [...common.external, ...Object.keys(vendored)],
  entryPoints: ['src/process.ts'],
  outfile: `${outdir}/roleflow.cjs`,
  format: 'cjs',
  // The one `import.meta.url` (files/package-root.ts) as the bundle's own URL.
  define: { 'import.meta.url': '__roleflowBundleUrl' },
  banner: { js: "const __roleflowBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // With the code cache, validators written as functions are compiled once and then cached.
  plugins: [standaloneValidators('functions')],
});

// The bundles are made pure ASCII, so bin.cjs reads them as latin1, many times quicker than
// decoding UTF-8 (a tenth of a warm start). esbuild escapes strings already; what is left (a few
// comments, a regex class) takes \u escapes, which mean the same there.
// esbuild turns a dynamic import of bundled code into a lazy require; one of anything else stays an
// `import()`, which Node 20 cannot run in a script compiled from a code cache.
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
  define: { ROLEFLOW_BUILD: JSON.stringify(hash.digest('hex').slice(0, 16)), ROLEFLOW_VENDORED: JSON.stringify(vendored) },
});
