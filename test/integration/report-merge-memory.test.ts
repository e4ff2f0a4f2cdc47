import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { writeShards } from './merge-kit.js';

/**
 * Run in a process of its own (node --expose-gc): a first merge of one report (what a merge of any
 * size loads and compiles once), then the live memory (heap used and array buffers, after a full
 * collection) as the baseline; the streamed merge of every file, sampled at every 1,000th
 * JSON.parse (one per result read, one per result written) and after each report; then, to show
 * the sampling sees reports held, five of them as JSON.parse reads them.
 */
const CHILD = `
import { readFileSync, statSync } from 'node:fs';
import { makeRedactor } from ${JSON.stringify(join(repoRoot, 'src/core/text/redact.ts'))};
import { mergeReportFiles } from ${JSON.stringify(join(repoRoot, 'src/run/report/report-merge.ts'))};
const [out, ...files] = process.argv.slice(2);
const live = () => { globalThis.gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
const options = { cwd: process.cwd(), allowPartial: true, preferLast: false, redactor: makeRedactor([]) };
await mergeReportFiles({ ...options, files: files.slice(0, 1), out });
const base = live();
let peak = base;
const sample = () => { peak = Math.max(peak, live()); };
const parse = JSON.parse;
let parsed = 0;
JSON.parse = (...args) => { if (++parsed % 1000 === 0) sample(); return parse(...args); };
const merged = await mergeReportFiles({ ...options, allowPartial: false, files, out }, { read: sample });
sample();
JSON.parse = parse;
const largest = Math.max(...files.map((f) => statSync(f).size));
const held = files.slice(0, 5).map((f) => parse(readFileSync(f, 'utf8')));
const five = live() - base;
process.stdout.write(JSON.stringify({ growth: peak - base, largest, five, held: held.length, tests: merged.report.summary.tests, parsed }));
`;

describe('report merge at scale', () => {
  it('merges 50 shard reports of 1,000 results each in at most twice the size of the largest report file', async () => {
    const { dir, cleanup } = await tempDir('roleflow-merge-memory-');
    try {
      const files = await writeShards(dir, 50, 1000);
      await writeFile(join(dir, 'child.ts'), CHILD);
      // Bundled beside the packages it imports (node_modules of the repository), for the Node the
      // CLI is built for: its JSON imports keep their import attribute (`with { type: 'json' }`).
      const child = join(repoRoot, 'node_modules', '.cache', `roleflow-merge-memory-${process.pid}.mjs`);
      await mkdir(join(repoRoot, 'node_modules', '.cache'), { recursive: true });
      await build({ entryPoints: [join(dir, 'child.ts')], outfile: child, bundle: true, platform: 'node', format: 'esm', target: 'node20.18', logLevel: 'error', packages: 'external' });
      // Array buffers freed by the collection itself, not later on another thread: what is sampled is what is live.
      const run = promisify(execFile)(process.execPath, ['--expose-gc', '--no-concurrent-array-buffer-sweeping', child, join(dir, 'merged.json'), ...files], {
        cwd: dir,
        maxBuffer: 1024 * 1024,
      }).finally(() => rm(child, { force: true }));
      const { stdout } = await run;
      const measured = JSON.parse(stdout) as { growth: number; largest: number; five: number; held: number; tests: number; parsed: number };
      expect(measured.tests).toBe(50_000);
      expect(measured.parsed).toBeGreaterThanOrEqual(100_000);
      // The sampling sees reports held in memory: five of them take more than the bound.
      expect(measured.five).toBeGreaterThan(2 * measured.largest);
      expect(measured.growth).toBeLessThanOrEqual(2 * measured.largest);
    } finally {
      await cleanup();
    }
  }, 300_000);
});
