// Builds dist/ with esbuild: the CLI as one CommonJS bundle, dist/bin.cjs (from src/bin.ts), and
// the embedded tenant as an ES module for scripts (bench/) that import it. A dynamic import of
// bundled code stays lazy (esbuild evaluates that module on first import), so a command runs only
// the code it needs. Type checking is `tsc --noEmit` (npm run typecheck).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompiledModule, schemasLoadedBy } from './standalone-validators.mjs';

const root = new URL('..', import.meta.url);
const outdir = new URL('dist', root).pathname;
rmSync(outdir, { recursive: true, force: true });

/**
 * The schemas of schemas/ that roleflow validates with, as ajv standalone validators, in place of
 * src/core/text/precompiled-schemas.ts: no command compiles one at start-up.
 */
const standaloneValidators = {
  name: 'standalone-validators',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]text[\\/]precompiled-schemas\.ts$/ }, () => ({
      contents: precompiledModule(new URL('schemas/', root), schemasLoadedBy(new URL('src/', root))),
      loader: 'js',
      resolveDir: root.pathname,
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  // ws's optional native helpers are not installed; ws falls back to JavaScript without them.
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [standaloneValidators],
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
});

// CommonJS: an ES module entry makes Node start its ES module loader for every command.
const cli = await build({
  ...common,
  entryPoints: ['src/bin.ts'],
  outfile: `${outdir}/bin.cjs`,
  format: 'cjs',
  metafile: true,
  // The one `import.meta.url` (files/package-root.ts) as the bundle's own URL.
  define: { 'import.meta.url': '__roleflowBundleUrl' },
  // The directive first: esbuild's own comes after the banner, where it is none.
  banner: { js: "'use strict'; const __roleflowBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

/**
 * dist/THIRD-PARTY-NOTICES.txt: the packages bundled into the CLI, each with its licence text, as
 * their licences ask of copies (the bundle keeps no licence comments).
 */
function thirdPartyNotices(metafile) {
  const packages = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [...packages].sort().map((name) => {
    const dir = new URL(`node_modules/${name}/`, root).pathname;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file === undefined ? `(no licence file; package.json says ${manifest.license})` : readFileSync(join(dir, file), 'utf8').trim();
    return `${name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
  });
  writeFileSync(`${outdir}/THIRD-PARTY-NOTICES.txt`, `roleflow's CLI bundle (dist/bin.cjs) includes these packages.\n\n${sections.join('\n---\n\n')}`);
}

thirdPartyNotices(cli.metafile);
