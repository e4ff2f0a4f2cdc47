// Start-up cost of the CLI: `roleflow --version`, `--help` and `validate` of the example
// repository (this one: roles/, flows/) against a bare `node -e 0`.
// A user pays this on every command and CI pays it on every step; the target is 2x node itself.
import { bin, formatMs, median, printResult, quick, round, timeInterleaved } from './lib.mjs';

const runs = quick ? 5 : 15;
const TARGET = 2;

const samples = timeInterleaved(
  {
    floor: [process.execPath, ['-e', '0']],
    version: [process.execPath, [bin, '--version']],
    help: [process.execPath, [bin, '--help']],
    validate: [process.execPath, [bin, 'validate']],
  },
  runs,
);

const floor = median(samples.floor);
console.log(`node -e 0: median ${formatMs(floor)} over ${runs} runs`);
const spread = (name) => `${formatMs(Math.min(...samples[name]))}–${formatMs(Math.max(...samples[name]))}`;
console.log(`  (spread ${spread('floor')})`);
const results = ['version', 'help', 'validate'].map((name) => {
  const value = median(samples[name]);
  const label = name === 'validate' ? 'validate' : `--${name}`;
  console.log(`roleflow ${label}: median ${formatMs(value)} (spread ${spread(name)}), ${round(value / floor)}x node`);
  return { bench: `startup ${label}`, value_ms: round(value, 1), floor_ms: round(floor, 1), ratio: round(value / floor), target: TARGET };
});
for (const result of results) printResult(result);
