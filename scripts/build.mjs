// Builds the CLI into dist/ with esbuild: one ESM bundle per entry, shared code in chunks, and every
// dynamic import (the emulator, ws, the client…) in a chunk of its own, so start-up loads only what
// the command needs. Type checking is `tsc --noEmit` (npm test runs it).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { precompiledModule } from './standalone-validators.mjs';

const outdir = new URL('../dist', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    bin: 'src/bin.ts',
    cli: 'src/cli.ts',
    'emulator/index': 'src/emulator/index.ts',
    'tenant/client': 'src/tenant/client.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  chunkNames: 'chunks/[name]-[hash]',
  // ws's optional native helpers are not installed; ws falls back to JavaScript without them.
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS dependencies call require(); give them one in ESM.
  banner: { js: "import { createRequire as __roleflowCreateRequire } from 'node:module'; const require = __roleflowCreateRequire(import.meta.url);" },
  legalComments: 'none',
  plugins: [
    {
      // The schemas as ajv standalone validators: no command compiles a schema at start-up.
      name: 'standalone-validators',
      setup(b) {
        const root = new URL('..', import.meta.url);
        b.onLoad({ filter: /[\\/]src[\\/]core[\\/]precompiled-schemas\.ts$/ }, () => ({
          contents: precompiledModule(new URL('schemas/', root)),
          loader: 'js',
          resolveDir: root.pathname,
        }));
      },
    },
  ],
  logLevel: 'warning',
});
