// The flow test runner: its overhead per test case over a bare client, and whether the latencies it
// reports are the truth. The emulator (flows-serve.mjs) runs in a child process; `roleflow test` and
// the floor (flows-floor.mjs) each run as processes, alternating, against it.
//
// 1. Overhead, per transport at concurrency 8 against the `zero` flow (two steps, latency 0):
//    CASES (1,000) distinct tests, the headline, and one test repeated CASES times (the same
//    executions without CASES test definitions to load and report, printed for information), each
//    minus a one-test run: per case = (run - tiny run) / (CASES - 1), so the CLI's fixed start-up
//    cost (node, modules, config, report file) cancels out. The floor (node:http keep-alive / ws) is
//    a process measured the same way. The ratio is the median of the rounds' own ratios: a round's
//    runs follow one another, so a drift in the machine's speed between rounds cancels out of it,
//    where it would not out of a ratio of two medians taken in different rounds.
// 2. Latency honesty: the `timed` flow (50, 120, 30 ms) one execution at a time; server-reported
//    step latencies must equal the configured ones; client wall-clock against the simulated total
//    plus a bare round trip.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTimedSuite, writeZeroSuite } from './flows-fixture.mjs';
import { latencyHonesty } from './flows-latency.mjs';
import { bin, formatMs, median, pairedRatio, printResult, quick, round, startServerChild, timeCommand } from './lib.mjs';

const CASES = quick ? 200 : 1000;
const ROUNDS = quick ? 1 : 7;
const CONCURRENCY = 8;
const TIMED_REPEAT = quick ? 4 : 12;
const RTT_SAMPLES = quick ? 6 : 20;
const OVERHEAD_TARGET = 1.5;
const WALL_TARGET_MS = 5;
const TRANSPORTS = { https: 'HTTPS', ws: 'WebSocket' };
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const profileDir = process.env.BENCH_CPU_PROF;

const tenant = await startServerChild('./flows-serve.mjs');
const work = mkdtempSync(join(tmpdir(), 'roleflow-flows-bench-'));
/** The suites: their folder and what a run of them must report. */
const suites = {
  tests: { dir: join(work, 'tests'), tests: CASES, executions: CASES },
  repeated: { dir: join(work, 'repeated'), tests: 1, executions: CASES },
  tiny: { dir: join(work, 'tiny'), tests: 1, executions: 1 },
  timed: { dir: join(work, 'timed') },
};
writeZeroSuite(suites.tests.dir, CASES);
writeZeroSuite(suites.repeated.dir, 1, CASES);
writeZeroSuite(suites.tiny.dir, 1);
writeTimedSuite(suites.timed.dir, TIMED_REPEAT);

try {
  // ---- 1. Overhead ----
  const samples = {};
  const plan = [
    ['runner', 'tests'],
    ['runner', 'repeated'],
    ['runner', 'tiny'],
    ['floor', 'tests'],
    ['floor', 'tiny'],
  ];
  for (let pass = -1; pass < ROUNDS; pass++) {
    for (const transport of Object.keys(TRANSPORTS)) {
      // Alternate which goes first; the warm-up pass (disk cache, the emulator's JIT) is tiny runs only.
      const runs = pass < 0 ? plan.filter(([, suite]) => suite === 'tiny') : pass % 2 === 0 ? plan : [...plan].reverse();
      for (const [who, suite] of runs) {
        const run = who === 'floor' ? runFloor(transport, suites[suite].executions) : runRunner(transport, suite, pass);
        if (pass >= 0) (samples[`${who} ${transport} ${suite}`] ??= []).push(run);
      }
    }
  }

  console.log(`Runner overhead: 2-step flow with latency 0, concurrency ${CONCURRENCY}, ${ROUNDS} rounds, each run a process;`);
  console.log(`per case = (run of ${CASES} executions - run of 1) / ${CASES - 1}, median over the rounds; ratio = median of the rounds' ratios`);
  const overhead = [];
  for (const [transport, label] of Object.entries(TRANSPORTS)) {
    const of = (who, suite) => perCase(samples[`${who} ${transport} ${suite}`], samples[`${who} ${transport} tiny`]);
    const floor = of('floor', 'tests');
    const tests = of('runner', 'tests');
    const repeated = of('runner', 'repeated');
    const line = (name, r) =>
      `    ${name.padEnd(28)} ${formatMs(r.wall).padStart(7)}/case (spread ${formatMs(r.spread[0])}–${formatMs(r.spread[1])})  CPU ${formatMs(r.cpu).padStart(7)}/case  ${pairedRatio(r.walls, floor.walls).ratio}x wall (rounds ${pairedRatio(r.walls, floor.walls).ratio_spread.join('–')}), ${round(r.cpu / floor.cpu)}x CPU (whole run ${formatMs(r.runWall)})`;
    console.log(`  ${label}`);
    console.log(line(`roleflow test, ${CASES} tests`, tests));
    console.log(line(`roleflow test, 1 test x ${CASES}`, repeated));
    console.log(line(`bare ${transport === 'https' ? 'node:http' : 'ws'}`, floor));
    console.log(`    one-case runs: roleflow test ${formatMs(tests.tinyWall)}, bare ${formatMs(floor.tinyWall)} (the fixed cost taken out above)`);
    console.log(`    each round, roleflow test (${CASES} tests) over bare: ${tests.walls.map((w, i) => round(w / floor.walls[i])).join(', ')}`);
    overhead.push(overheadResult(`flows runner ${label} per case, ${CASES} tests`, tests, floor));
    // Information only: the repeat path alone, without loading test definitions.
    const { target: _t, ...info } = overheadResult(`flows runner ${label} per case, 1 test x ${CASES}`, repeated, floor);
    overhead.push(info);
  }
  console.log(
    `  The difference between the two roleflow rows is the cost of a test definition: loading it from YAML and its result in the report ` +
      `(the same executions either way).`,
  );

  // ---- 2. Latency honesty ----
  const reportFile = join(work, 'timed.json');
  const latency = await latencyHonesty(tenant.info, {
    repeat: TIMED_REPEAT,
    rttSamples: RTT_SAMPLES,
    targetMs: WALL_TARGET_MS,
    runTimed: () => {
      runCli([suites.timed.dir, '--concurrency', '1'], reportFile, join(work, 'timed.cpu'));
      return JSON.parse(readFileSync(reportFile, 'utf8'));
    },
  });

  for (const result of [...overhead, ...latency]) printResult(result);
} finally {
  await tenant.stop();
  rmSync(work, { recursive: true, force: true });
}

/** `roleflow test` over a `zero` suite; checks in its JSON report that every case passed. */
function runRunner(transport, suite, pass) {
  const { dir, tests, executions } = suites[suite];
  const reportFile = join(work, `${transport}-${suite}.json`);
  const profile = profileDir && suite === 'tests' && pass === 0 ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const run = runCli([dir, '--concurrency', String(CONCURRENCY), '--transport', transport], reportFile, `${reportFile}.cpu`, profile);
  const { summary } = JSON.parse(readFileSync(reportFile, 'utf8'));
  if (summary.passed !== tests || summary.executions !== executions) {
    throw new Error(`roleflow test (${transport}, ${suite}): ${summary.passed} of ${tests} tests passed, ${summary.executions} of ${executions} executions`);
  }
  return run;
}

function runFloor(transport, executions) {
  const { baseUrl, wsUrl } = tenant.info;
  const args = [here('./flows-floor.mjs'), transport, String(executions), String(CONCURRENCY), baseUrl, wsUrl];
  return timeNode(args, join(work, `floor-${transport}-${executions}.cpu`));
}

function runCli(args, reportFile, cpuFile, execArgv = []) {
  const { baseUrl, wsUrl } = tenant.info;
  return timeNode([...execArgv, bin, 'test', ...args, '--base-url', baseUrl, '--ws-url', wsUrl, '--tenant', 'bench', '--reporter', `json=${reportFile}`], cpuFile);
}

/** Wall time to exit and the process's own CPU time, in ms. The token only travels in the environment. */
function timeNode(args, cpuFile) {
  rmSync(cpuFile, { force: true });
  const env = { ...process.env, ROLEFLOW_TOKEN: tenant.info.token, BENCH_CPU_FILE: cpuFile, NO_COLOR: '1' };
  const wall = timeCommand(process.execPath, ['--import', here('./flows-cpu.mjs'), ...args], { env });
  const { user, system } = JSON.parse(readFileSync(cpuFile, 'utf8'));
  return { wall, cpu: (user + system) / 1000 };
}

/** Marginal cost per case: the median over rounds of (run - tiny run, same round) / (CASES - 1). */
function perCase(runs, tiny) {
  const each = (key) => runs.map((r, i) => (r[key] - tiny[i][key]) / (CASES - 1));
  const walls = each('wall');
  return {
    wall: median(walls),
    walls,
    spread: [Math.min(...walls), Math.max(...walls)],
    cpu: median(each('cpu')),
    runWall: median(runs.map((r) => r.wall)),
    tinyWall: median(tiny.map((t) => t.wall)),
  };
}

/** A marginal cost at or below zero means the machine's load swamped the run: reported, not judged. */
function overheadResult(bench, runner, floor) {
  const result = { bench, value_ms: round(runner.wall, 3), floor_ms: round(floor.wall, 3) };
  const paired = pairedRatio(runner.walls, floor.walls);
  if (runner.wall > 0 && floor.wall > 0 && Number.isFinite(paired.ratio)) return { ...result, ...paired, target: OVERHEAD_TARGET };
  console.log(`  ${bench}: a marginal cost at or below zero; the machine was too busy for this figure to mean anything`);
  return result;
}

