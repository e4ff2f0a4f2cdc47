#!/usr/bin/env node
// The CLI is one CommonJS bundle built from process.ts (scripts/build.mjs), run through a V8 code
// cache (code-cache.ts): Node 20 keeps no compiled code between runs of ES modules.
import { join } from 'node:path';
import { runWithCodeCache } from './code-cache.js';

/** Put here by the build: a hash of the bundles, and the packages bundled on their own. */
declare const ROLEFLOW_BUILD: string;
declare const ROLEFLOW_VENDORED: Record<string, { file: string; exports?: string[] }>;

runWithCodeCache({
  // Built as CommonJS (dist/bin.cjs), next to the bundle.
  bundle: join(__dirname, 'roleflow.cjs'),
  vendored: ROLEFLOW_VENDORED,
  build: ROLEFLOW_BUILD,
  argv: process.argv.slice(2),
  env: process.env,
});
