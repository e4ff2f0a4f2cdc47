import { evaluateTest, type AssertionContext, type ExecutionResult, type FlowTest, type JudgeRecord, type OutputAssertion, type Transport } from '../../core/flows/index.js';
import type { TenantClient } from '../../core/model.js';
import { buildTestResult, type TestRun } from '../../report/build.js';
import type { TestResult } from '../../report/model.js';
import { runHttps, type FlowPaces } from './flow-https.js';
import { runError, tenantProblem, type RunClock, realClock } from './flow-shared.js';
import { runWs } from './flow-ws.js';
import type { PlannedRun } from '../../core/runs/select.js';
import { resolveBaselineBudgets, type Baseline } from '../../core/compare/index.js';

export interface RunEvents {
  /** An execution starts; `label` names the test, transport and repeat; `done` of `total` are over. */
  started?(label: string, done: number, total: number): void;
  /** An execution ended; `done` of `total` executions are over. */
  finished?(label: string, done: number, total: number): void;
  /** A test × transport has its result (in completion order). */
  tested?(result: TestResult): void;
}

export interface RunTestsOptions {
  client: TenantClient;
  runs: readonly PlannedRun[];
  concurrency: number;
  bail: boolean;
  events?: RunEvents;
  clock?: RunClock;
  /** `--strict-end`: an execution that only quiet says is over is an error. */
  strictEnd?: boolean;
  /**
   * Aborted when the run is to stop (SIGINT/SIGTERM): nothing new starts, executions in flight
   * end at once as `interrupted`, and every test still gets its result (what did not run, not run).
   */
  signal?: AbortSignal;
  /** What output assertions need from files (snapshots, Roles): `AssertionFiles` (run/flows/assertions.ts). */
  assertions?: { contextFor(test: FlowTest, transport: Transport, executions?: readonly (ExecutionResult | undefined)[]): AssertionContext };
  /** `--baseline`: the report that relative budgets (`"< baseline + 20%"`) are judged against. */
  baseline?: Baseline;
  /** `judge` assertions: judged once a test's executions are over, before its result is built (`JudgeRunner`). */
  judges?: {
    judgeExecutions(test: FlowTest, executions: readonly (ExecutionResult | undefined)[]): Promise<void>;
    lookup(a: OutputAssertion, value: unknown): JudgeRecord | undefined;
  };
}

export interface RunOutcome {
  /** In the order of `runs`. */
  results: TestResult[];
  bailed: boolean;
  /** `signal` was aborted: the run was cut short. */
  interrupted: boolean;
  /** The tenant cannot run tests (unreachable, refusing the token): the run was stopped. */
  tenantProblem?: string;
}

/**
 * Every test × transport × repeat, at most `concurrency` executions at once, started in that
 * order; a test's result is made as its last execution ends. With `bail`, no new execution starts
 * once a test has failed; an unreachable or refusing tenant stops the run the same way (what
 * already runs finishes); an aborted `signal` too, and it ends what runs as well. An HTTPS
 * execution polls when the last finished one of its flow says it should be over (`FlowPaces`).
 */
export async function runTests(options: RunTestsOptions): Promise<RunOutcome> {
  const { client, events = {} } = options;
  const runs = options.runs.map((run) => {
    const test = resolveBaselineBudgets(run.test, run.transport, options.baseline);
    return test === run.test ? run : { ...run, test };
  });
  const clock = options.clock ?? realClock;
  const total = runs.reduce((n, r) => n + (r.skip === undefined && r.error === undefined ? r.test.repeat : 0), 0);
  let done = 0;
  let stop: 'bail' | 'tenant' | undefined;
  let problem: string | undefined;
  let leftOut = 0;
  const paces: FlowPaces = new Map();
  const signal = options.signal;
  const runOptions = { clock, ...(signal && { signal }), ...(options.strictEnd && { strictEnd: true }) };
  // Made once for the run: every HTTPS execution shares the paces.
  const httpsOptions = { ...runOptions, paces };
  // An execution's label is made only for a listener (the console's progress line).
  const labelled = events.started !== undefined || events.finished !== undefined;

  const runOne = async (run: PlannedRun, repeat: number, failures: { count: number }): Promise<ExecutionResult | undefined> => {
    if (stop || signal?.aborted) {
      leftOut += 1;
      return undefined;
    }
    const label = labelled ? `${run.test.id} [${run.transport}]${run.test.repeat > 1 ? ` #${repeat + 1}` : ''}` : '';
    events.started?.(label, done, total);
    const result = run.transport === 'https' ? await runHttps(client, run.test, run.inputs, httpsOptions) : await runWs(client, run.test, run.inputs, runOptions);
    done += 1;
    const down = tenantProblem(result);
    if (down !== undefined) {
      stop = 'tenant';
      problem ??= down;
    }
    // The test can no longer reach min_pass: that is its failure, and --bail's cue. (Only --bail
    // judges an execution here; the report judges them all once the test is over.)
    const judged = () => evaluateTest(run.test, result, options.assertions?.contextFor(run.test, run.transport));
    if (options.bail && result.endedBy !== 'interrupted' && judged().some((a) => a.status === 'fail')) {
      failures.count += 1;
      if (failures.count > run.test.repeat - run.test.minPass) stop ??= 'bail';
    }
    events.finished?.(label, done, total);
    return result;
  };

  const results: TestResult[] = new Array(runs.length);
  const finish = (index: number, executions: (ExecutionResult | undefined)[]): void => {
    const run = runs[index]!;
    const stopped = signal?.aborted ? 'interrupt' : stop === 'tenant' ? 'tenant' : 'bail';
    const context = options.assertions?.contextFor(run.test, run.transport, executions) ?? (options.judges ? {} : undefined);
    if (context && options.judges) context.judged = options.judges.lookup;
    const testRun: TestRun = { test: run.test, transport: run.transport, executions, stopped };
    if (run.skip !== undefined) testRun.skip = run.skip;
    if (context) testRun.context = context;
    const result = buildTestResult(testRun);
    if (options.bail && (result.status === 'fail' || result.status === 'error')) stop ??= 'bail';
    events.tested?.(result);
    results[index] = result;
  };

  // The executions to make, in order, as pairs (run index, repeat): a few workers take them one
  // by one, as a limiter would, without a promise for each one waiting.
  const queue: number[] = [];
  const pending: { executions: (ExecutionResult | undefined)[]; left: number; failures: { count: number } }[] = [];
  runs.forEach((run, index) => {
    if (run.skip !== undefined) return finish(index, []);
    if (run.error !== undefined) return finish(index, Array.from({ length: run.test.repeat }, () => notStarted(run, run.error!)));
    pending[index] = { executions: new Array<ExecutionResult | undefined>(run.test.repeat), left: run.test.repeat, failures: { count: 0 } };
    for (let repeat = 0; repeat < run.test.repeat; repeat++) queue.push(index, repeat);
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const index = queue[next++]!;
      const repeat = queue[next++]!;
      const test = pending[index]!;
      test.executions[repeat] = await runOne(runs[index]!, repeat, test.failures);
      if (--test.left > 0) continue;
      await options.judges?.judgeExecutions(runs[index]!.test, test.executions);
      finish(index, test.executions);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency), queue.length / 2) }, worker));
  const interrupted = signal?.aborted === true;
  return { results, bailed: stop === 'bail' && leftOut > 0, interrupted, ...(problem !== undefined && { tenantProblem: problem }) };
}

/** An execution that could not start (a missing environment variable): an error, nothing sent. */
function notStarted(run: PlannedRun, why: string): ExecutionResult {
  return { transport: run.transport, status: 'error', endedBy: 'error', error: runError(run.test.flow, run.transport, why), wallMs: 0 };
}
