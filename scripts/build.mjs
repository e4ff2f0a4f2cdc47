// Builds dist/ with esbuild: the CLI, dist/bin.js (from src/bin.ts), and the embedded tenant,
// dist/emulator/index.js, for scripts (bench/) that import it, as ES modules sharing their chunks
// (dist/chunks/). A command loads the code it runs and no more: each command class imports its
// verb of run/ inside `execute`, and the build splits the code at every such dynamic import, so
// `--version` reads the entry alone and `validate` never reads the HTTP client. Type checking is
// `tsc --noEmit` (npm run typecheck).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { standaloneValidatorsPlugin } from './standalone-validators.mjs';
import { writeThirdPartyNotices } from './third-party-notices.mjs';

const root = new URL('..', import.meta.url);
const outdir = new URL('dist', root).pathname;
rmSync(outdir, { recursive: true, force: true });

// The schemas of schemas/ that roleflow validates with, as ajv standalone validators in place of
// src/core/text/precompiled-schemas.ts: no command compiles one at start-up.
const validators = standaloneValidatorsPlugin(root);

const cli = await build({
  absWorkingDir: root.pathname,
  entryPoints: { bin: 'src/bin.ts', 'emulator/index': 'src/emulator/index.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node20.18',
  // ws's optional native helpers are not installed; ws falls back to JavaScript without them.
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS dependencies call require(); give them one in ESM.
  banner: { js: "import { createRequire as __roleflowCreateRequire } from 'node:module'; const require = __roleflowCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [validators.plugin],
});

writeThirdPartyNotices(cli.metafile, root, `${outdir}/THIRD-PARTY-NOTICES.txt`, "roleflow's CLI (dist/)");

validators.writeFiles(cli.metafile);
