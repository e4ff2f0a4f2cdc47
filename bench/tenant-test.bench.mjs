// `test` where users wait for it: on the tenant's flows. The emulator (flows-serve.mjs, a child
// process) answers every HTTP request LATENCY_MS late and runs the `slow` flow, whose executions
// take SLOW_MS (flows-fixture.mjs). `roleflow test` runs TESTS such tests over HTTPS at
// CONCURRENCY, cold (empty HOME and XDG folders, lib.mjs: coldEnv), ROUNDS times.
// - Time: against the bound TESTS x SLOW_MS / CONCURRENCY: no runner can finish sooner.
// - How soon an execution's end is seen: the HTTPS runner learns of it at its first poll after
//   it. "Seen - ended" of each execution is its wall-clock in the report (from just before the
//   start request to the answer of the poll that saw the end) minus SLOW_MS; that counts the
//   start request's way to the tenant too, so it is never less than the truth. Its median and
//   95th percentile over every execution of every round, against the runner's poll interval at
//   that point (a fifth of the time since the start: src/run/flows/flow-https.ts), and beside the least
//   it can be, one poll's round trip to this tenant, measured before and after the runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { barePool, httpsCase, pollIntervalMs } from './flows-bare.mjs';
import { SLOW_MS, writeSlowSuite, ZERO_STEPS } from './flows-fixture.mjs';
import { bin, coldEnv, formatMs, median, pairedRatio, percentile, printResult, quick, round, runProcess, spreadMs, startServerChild } from './lib.mjs';

const TESTS = quick ? 40 : 200;
const CONCURRENCY = 20;
const LATENCY_MS = 50;
const ROUNDS = quick ? 1 : 3;
const RTT_SAMPLES = 10;
const TIME_TARGET = 1.2;

const tenant = await startServerChild('./flows-serve.mjs', [String(LATENCY_MS)]);
const work = mkdtempSync(join(tmpdir(), 'roleflow-bench-tenant-test-'));
const suite = join(work, 'slow');
const reportFile = join(work, 'report.json');
writeSlowSuite(suite, TESTS);
const walls = [];
const lags = [];
const rtts = [];
try {
  rtts.push(...(await pollRoundTrips()));
  for (let r = 0; r < ROUNDS; r++) {
    const { wall, executionWalls } = await runTests();
    walls.push(wall);
    lags.push(...executionWalls.map((ms) => ms - SLOW_MS));
  }
  rtts.push(...(await pollRoundTrips()));
} finally {
  await tenant.stop();
  rmSync(work, { recursive: true, force: true });
}

const bound = (TESTS * SLOW_MS) / CONCURRENCY;
const vsBound = pairedRatio(walls, bound);
const rtt = median(rtts);
const interval = pollIntervalMs(SLOW_MS);
console.log(`${TESTS} HTTPS flow tests of ${formatMs(SLOW_MS)} each, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}: bound ${TESTS} x ${formatMs(SLOW_MS)} / ${CONCURRENCY} = ${formatMs(bound)}`);
console.log(`  roleflow test ${formatMs(median(walls))} (${spreadMs(walls)}): ${vsBound.ratio}x the bound (runs ${vsBound.ratio_spread.join('–')})`);
console.log(
  `  end seen after it ended, over ${lags.length} executions: median ${formatMs(median(lags))}, 95th percentile ${formatMs(percentile(lags, 95))}, ` +
    `max ${formatMs(Math.max(...lags))}; the poll interval then ${formatMs(interval)}; one poll's round trip ${formatMs(rtt)} (${spreadMs(rtts)})`,
);

const seen = (what, value) => ({
  bench: `test: end of an execution seen, ${what} of seen - ended, vs one poll`,
  value: round(value, 1),
  floor: round(rtt, 1),
  unit: 'ms',
  ratio: round(value / rtt),
  value_target: interval,
});
printResult({
  bench: `test ${TESTS} HTTPS flow tests of ${SLOW_MS / 1000} s, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}, vs tests x ${SLOW_MS / 1000} s / concurrency`,
  value_ms: round(median(walls), 1),
  floor_ms: round(bound, 1),
  ...vsBound,
  target: TIME_TARGET,
});
printResult(seen('median', median(lags)));
printResult(seen('95th percentile', percentile(lags, 95)));

/** One cold `roleflow test` of the suite; every test must pass, each with one execution. */
async function runTests() {
  const cold = coldEnv();
  try {
    const { baseUrl, wsUrl, token } = tenant.info;
    const args = [bin, 'test', suite, '--concurrency', String(CONCURRENCY), '--base-url', baseUrl, '--ws-url', wsUrl, '--tenant', 'bench', '--reporter', `json=${reportFile}`];
    // The token only ever travels in the environment, as users give it.
    const run = await runProcess(process.execPath, args, { env: { ...cold.env, ROLEFLOW_TOKEN: token, NO_COLOR: '1' } });
    if (run.code !== 0) throw new Error(`roleflow test exited ${run.code}: ${run.stderr.trim().split('\n')[0] ?? ''}`);
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const executionWalls = report.results.flatMap((result) => result.repeats.map((repeat) => repeat.wall_ms));
    if (report.summary.passed !== TESTS || executionWalls.length !== TESTS || executionWalls.some((ms) => typeof ms !== 'number')) {
      throw new Error(`roleflow test: ${report.summary.passed} of ${TESTS} tests passed, ${executionWalls.length} executions`);
    }
    return { wall: run.wall, executionWalls };
  } finally {
    cold.cleanup();
  }
}

/** Round trips of a bare `exec_logs` poll to this tenant, on a warm keep-alive connection. */
async function pollRoundTrips() {
  const { baseUrl, token } = tenant.info;
  const pool = barePool(baseUrl, 1);
  const polls = [];
  try {
    for (let i = -1; i < RTT_SAMPLES / 2; i++) {
      // The `zero` flow is over at once: the start, then one poll that sees both steps.
      const [, poll] = await httpsCase(pool, token, 'zero', { n: 'rtt' }, ZERO_STEPS);
      if (i >= 0) polls.push(poll);
    }
  } finally {
    await pool.close();
  }
  return polls;
}
