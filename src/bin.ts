#!/usr/bin/env node
// The CLI is one CommonJS bundle built from process.ts (scripts/build.mjs), run through a V8 code
// cache (code-cache.ts): Node 20 keeps no compiled code between runs of ES modules.
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';

/** Put here by the build: a hash of the bundles, and the packages bundled on their own. */
declare const ROLEFLOW_BUILD: string;
declare const ROLEFLOW_VENDORED: Record<string, string>;

runWithCodeCache({
  bundle: fileURLToPath(new URL('./roleflow.cjs', import.meta.url)),
  vendored: ROLEFLOW_VENDORED,
  build: ROLEFLOW_BUILD,
  argv: process.argv.slice(2),
  env: process.env,
});
