// Start-up where users pay it: cold, as on a fresh CI runner. Every process, the floor too, runs
// with new, empty HOME and XDG folders and without NODE_EXTRA_CA_CERTS (lib.mjs: coldEnv), its
// output read through pipes as a runner reads a step. Round-robin with the floor, `node -e 0`:
//   validate    `roleflow validate` of this repository (roles/, flows/)
//   plan        `roleflow plan` against the embedded tenant, in a fresh copy of the repository's
//               roles/ and flows/ (no .roleflow/ left by an earlier run: a fresh checkout)
//   action      the Action's `plan` step: its bundle (action/dist/index.js) run as a runner runs
//               it, on a push event (no pull-request comment), in another fresh copy
//   version, help   `--version`, `--help` (information)
//   libraries   startup-libraries.mjs, bundled as the CLI is: the libraries roleflow uses (yaml,
//               ajv, re2js) doing validate's parsing of this repository, nothing of roleflow's; a
//               second floor for validate (information)
// Each ratio is the median of the rounds' own ratios (command over the floor of the same round).
// The same runs give the time from a command's last byte of output to its exit, against a floor
// that prints one line and exits.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, coldEnv, formatMs, median, pairedRatio, printResult, quick, root, round, runProcess, spreadMs } from './lib.mjs';

const ROUNDS = quick ? 5 : 15;
const EXIT_LAG_TARGET_MS = 50;
const bundle = fileURLToPath(new URL('../action/dist/index.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'roleflow-bench-startup-'));

/** A copy of the repository's roles/ and flows/, as a checkout holds them, with no .roleflow/. */
function checkout(name) {
  const dir = join(work, name);
  for (const sub of ['roles', 'flows']) cpSync(join(root, sub), join(dir, sub), { recursive: true });
  return { dir, reset: () => rmSync(join(dir, '.roleflow'), { recursive: true, force: true }) };
}
const planRepo = checkout('plan');
const libraries = join(work, 'startup-libraries.mjs');
const { build } = await import('esbuild');
await build({
  entryPoints: [fileURLToPath(new URL('startup-libraries.mjs', import.meta.url))],
  outfile: libraries,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  logLevel: 'warning',
});
const actionRepo = checkout('action');

/** The environment a runner gives the Action's step (test/action/run-action.ts), in fresh runner folders. */
function actionEnv(cold) {
  const temp = join(cold.env.HOME, 'runner');
  mkdirSync(temp);
  const event = join(temp, 'event.json');
  writeFileSync(event, JSON.stringify({ ref: 'refs/heads/main' }));
  const output = join(temp, 'output');
  writeFileSync(output, '');
  writeFileSync(join(temp, 'summary.md'), '');
  return {
    output,
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'acme/roles',
      // Nothing listens there: a push event posts no comment, and this makes sure of it.
      GITHUB_API_URL: 'http://127.0.0.1:9',
      GITHUB_SERVER_URL: 'https://github.invalid',
      GITHUB_RUN_ID: '1',
      GITHUB_SHA: 'fedcba9876543210fedcba9876543210fedcba98',
      GITHUB_WORKSPACE: actionRepo.dir,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: join(temp, 'summary.md'),
      RUNNER_TEMP: temp,
      INPUT_COMMAND: 'plan',
      'INPUT_GITHUB-TOKEN': 'ghs_benchStandInToken0123456789',
      'INPUT_WORKING-DIRECTORY': '.',
    },
  };
}

// The repository's role files (its README.md is none): the plan into an empty tenant creates each.
const ROLES = readdirSync(join(root, 'roles')).filter((f) => f.endsWith('.md') && f !== 'README.md').length;
const expectPlan = (r) => r.stdout.includes(`Plan: ${ROLES} to create, 0 to update, 0 to delete.`) || `no plan of ${ROLES} creates in its output`;
const commands = {
  floor: { args: ['-e', '0'] },
  'floor-print': { args: ['-e', "process.stdout.write('ok\\n')"] },
  version: { args: [bin, '--version'] },
  help: { args: [bin, '--help'] },
  validate: { args: [bin, 'validate'], check: (r) => r.stdout.includes('are valid') || 'it did not say the files are valid' },
  libraries: {
    args: [libraries],
    cwd: root,
    check: (r) => {
      const flows = readdirSync(join(root, 'flows')).filter((f) => f.endsWith('.yaml')).length;
      const done = JSON.parse(r.stdout);
      return (done.yaml === flows + ROLES + 1 && done.schemas > 0 && done.regexes > 0) || `it did not do validate's parsing: ${r.stdout.trim()}`;
    },
  },
  plan: { args: [bin, 'plan'], cwd: planRepo.dir, before: planRepo.reset, check: expectPlan },
  action: {
    args: [bundle],
    cwd: actionRepo.dir,
    before: actionRepo.reset,
    env: actionEnv,
    check: (r, step) => new RegExp(`^creates<<(\\S+)\\n${ROLES}\\n\\1$`, 'm').test(readFileSync(step.output, 'utf8')) || `its creates output is not ${ROLES}`,
  },
};

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, { wall: [], exitLag: [] }]));
try {
  // Round -1 is an untimed warm-up: the disk cache, as on a runner that has just checked out.
  for (let r = -1; r < ROUNDS; r++) {
    const names = Object.keys(commands);
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const { args, cwd, before, env, check } = commands[name];
      const cold = coldEnv();
      try {
        before?.();
        const step = env?.(cold);
        const run = await runProcess(process.execPath, args, { env: { ...cold.env, ...step?.env }, cwd });
        const wrong = run.code !== 0 ? `exit ${run.code}: ${run.stderr.trim().split('\n')[0] ?? ''}` : check?.(run, step);
        if (typeof wrong === 'string') throw new Error(`${name}: ${wrong}`);
        if (r < 0) continue;
        samples[name].wall.push(run.wall);
        if (run.exitLag !== undefined) samples[name].exitLag.push(run.exitLag);
      } finally {
        cold.cleanup();
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (process.env.NODE_EXTRA_CA_CERTS) console.log('(NODE_EXTRA_CA_CERTS is set here: unset for every process of this bench, the floor too)');
const floor = samples.floor.wall;
console.log(`Cold start-up, ${ROUNDS} rounds, each process with empty HOME and XDG folders; node -e 0: median ${formatMs(median(floor))} (${spreadMs(floor)})`);
const rows = [
  ['validate', 'startup validate, cold (this repository)', 3],
  ['plan', 'startup plan, cold (embedded tenant)', 4],
  ['action', "startup the Action's plan step, cold (its bundle)", 4],
  ['version', 'startup --version, cold', undefined],
  ['help', 'startup --help, cold', undefined],
  ['libraries', "startup the libraries alone doing validate's parsing, cold", undefined],
];
const results = [];
for (const [name, bench, target] of rows) {
  const wall = samples[name].wall;
  const paired = pairedRatio(wall, floor);
  console.log(`  ${name.padEnd(8)} median ${formatMs(median(wall))} (${spreadMs(wall)}): ${paired.ratio}x node -e 0 (rounds ${paired.ratio_spread.join('–')})`);
  results.push({ bench, value_ms: round(median(wall), 1), floor_ms: round(median(floor), 1), ...paired, ...(target === undefined ? {} : { target }) });
}

// validate over its libraries' own work, round by round: roleflow's share of validate's start.
{
  const paired = pairedRatio(samples.validate.wall, samples.libraries.wall);
  console.log(`  validate over the libraries alone: ${paired.ratio}x (rounds ${paired.ratio_spread.join('–')})`);
  results.push({ bench: "startup validate over the libraries alone doing its parsing", value_ms: round(median(samples.validate.wall), 1), floor_ms: round(median(samples.libraries.wall), 1), ...paired });
}

// From the last byte written to the exit: what a user (or a CI step) waits after the answer is out.
const lagFloor = samples['floor-print'].exitLag;
console.log(`From the last output to the exit (floor: node printing one line, median ${formatMs(median(lagFloor))}, max ${formatMs(Math.max(...lagFloor))}):`);
for (const name of ['validate', 'plan']) {
  const lag = samples[name].exitLag;
  console.log(`  ${name.padEnd(8)} median ${formatMs(median(lag))}, max ${formatMs(Math.max(...lag))}; every run: ${lag.map((ms) => Math.round(ms)).join(', ')}`);
  for (const [what, of] of [['median', median], ['max', (v) => Math.max(...v)]]) {
    const value = of(lag);
    const floorValue = of(lagFloor);
    results.push({
      bench: `exit after last output, ${name} (${what} of ${ROUNDS})`,
      value: round(value, 1),
      floor: round(floorValue, 1),
      unit: 'ms',
      // No ratio: the floor is a fraction of a millisecond, and the target is the figure itself.
      value_target: EXIT_LAG_TARGET_MS,
    });
  }
}
for (const result of results) printResult(result);
