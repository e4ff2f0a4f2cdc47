// Start-up cost of the CLI: `roleflow --version`, `--help` and `validate` of the example
// repository (this one: roles/, flows/) against a bare `node -e 0`.
// A user pays this on every command and CI pays it on every step; the target is 2x node itself.
// The CLI keeps the code it compiled for a command in a cache folder (src/code-cache.ts): the
// headline rows are the runs after the first (a fresh cache folder, filled by the warm-up round);
// the first run of a command, with no cache (NODE_DISABLE_COMPILE_CACHE=1), is printed for
// information: it is what a fresh CI machine pays once per command.
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, formatMs, median, printResult, quick, root, round, timeInterleaved } from './lib.mjs';

const runs = quick ? 5 : 15;
const TARGET = 2;
const cacheHome = mkdtempSync(join(tmpdir(), 'roleflow-bench-cache-'));
// Where NODE_EXTRA_CA_CERTS is set (CI images often set it), Node reads those certificates at
// every start, before any script: ~40 ms of `node -e 0` on a machine with Debian's bundle. Both
// sides would pay it, which flatters the ratio; every process here runs without it.
const plain = { NODE_EXTRA_CA_CERTS: undefined };
const cached = { ...plain, XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: '' };
const uncached = { ...plain, NODE_DISABLE_COMPILE_CACHE: '1' };
// A copy of the example repository whose flow test files change before each run, as after an
// edit: their parse cache entries miss (yaml, ajv and the validators are read), the compile cache
// is warm.
const edited = mkdtempSync(join(tmpdir(), 'roleflow-bench-edited-'));
for (const dir of ['roles', 'flows']) cpSync(join(root, dir), join(edited, dir), { recursive: true });
const editFlows = (round) => {
  for (const file of readdirSync(join(edited, 'flows')).filter((f) => f.endsWith('.yaml'))) appendFileSync(join(edited, 'flows', file), `# edit ${round}\n`);
};

let samples;
try {
  samples = timeInterleaved(
    {
      floor: [process.execPath, ['-e', '0'], plain],
      version: [process.execPath, [bin, '--version'], cached],
      help: [process.execPath, [bin, '--help'], cached],
      validate: [process.execPath, [bin, 'validate'], cached],
      'validate-edited': [process.execPath, [bin, 'validate'], cached, { cwd: edited, before: editFlows }],
      'validate-first': [process.execPath, [bin, 'validate'], uncached],
      'help-first': [process.execPath, [bin, '--help'], uncached],
    },
    runs,
  );
} finally {
  rmSync(cacheHome, { recursive: true, force: true });
  rmSync(edited, { recursive: true, force: true });
}

const floor = median(samples.floor);
if (process.env.NODE_EXTRA_CA_CERTS) console.log('(NODE_EXTRA_CA_CERTS is set here: unset for every process of this bench, the floor too)');
console.log(`node -e 0: median ${formatMs(floor)} over ${runs} runs`);
const spread = (name) => `${formatMs(Math.min(...samples[name]))}–${formatMs(Math.max(...samples[name]))}`;
console.log(`  (spread ${spread('floor')})`);
const rows = [
  ['version', 'startup --version', TARGET],
  ['help', 'startup --help', TARGET],
  ['validate', 'startup validate', TARGET],
  ['validate-edited', 'startup validate, flow files edited since the last run (compile cache, no parse cache entry)', undefined],
  ['help-first', 'startup --help, first run (no compile cache)', undefined],
  ['validate-first', 'startup validate, first run (no compile cache)', undefined],
];
for (const [name, bench, target] of rows) {
  const value = median(samples[name]);
  console.log(`roleflow ${bench.slice('startup '.length)}: median ${formatMs(value)} (spread ${spread(name)}), ${round(value / floor)}x node`);
  const result = { bench, value_ms: round(value, 1), floor_ms: round(floor, 1), ratio: round(value / floor) };
  printResult(target === undefined ? result : { ...result, target });
}
