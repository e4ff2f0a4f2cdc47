import {
  evaluateLatencyAcrossRepeats,
  evaluateTest,
  percentileOfSorted,
  summariseRepeats,
  type AssertionContext,
  type AssertionResult,
  type ExecutionIds,
  type ExecutionResult,
  type FlowTest,
  type Transport,
} from '../core/flows/index.js';
import type { ExecutionLogEntry, WsServerMessage } from '../core/model.js';
import { escapeControls } from '../core/text/safe-text.js';
import { shownAssertion } from './shown.js';
import type { ExecutionIdsRecord, LatencyStats, MessageRecord, RepeatResult, StepRecord, TestResult, TestStatus } from './model.js';

/** One test × transport as it is run: `test.repeat` / `test.minPass` already carry any `--repeat`. */
export interface TestRun {
  test: FlowTest;
  transport: Transport;
  /** Set when the test is not run at all (its `skip`, or a transport the tenant lacks). */
  skip?: string;
  /** One per repeat; undefined for a repeat that was never started (`--bail`, an interruption). */
  executions: (ExecutionResult | undefined)[];
  /** What left repeats unstarted or cut short (default `bail`). */
  stopped?: StopCause;
  /** Snapshots and Roles for the output assertions that need them. */
  context?: AssertionContext;
}

/** What stops a run before every execution has run: `--bail`, SIGINT/SIGTERM, or a tenant that cannot run tests (unreachable, refusing the token). */
export type StopCause = 'bail' | 'interrupt' | 'tenant';

const NOT_RUN: Record<StopCause, string> = {
  bail: 'not run: --bail stopped the run after a failure',
  interrupt: 'not run: the run was interrupted',
  tenant: 'not run: the tenant cannot run the tests, so the run was stopped',
};

/** Why a repeat did not run, as every report says it. */
export function notRunReason(stopped: StopCause = 'bail'): string {
  return NOT_RUN[stopped];
}

/**
 * Judge one test × transport from its executions (pure). Its messages (why it failed or was
 * skipped, execution errors, each assertion's expected and actual) are text for people, made of
 * what the test file and the tenant said: they hold control characters escaped
 * (`escapeControls`), as every reporter shows them. Names, ids and outputs are data, kept exact.
 */
export function buildTestResult(run: TestRun): TestResult {
  const { test } = run;
  if (run.skip !== undefined) {
    const repeats = Array.from({ length: test.repeat }, (_, i) => notRun(i));
    return testResult(run, { status: 'skip', message: escapeControls(run.skip), passed: 0, wall_ms: null, step_latency_ms: {}, across_repeats: [], repeats });
  }
  // An interrupted execution is kept as it was cut, but judged no more than one never started.
  const ran = run.executions.filter((e): e is ExecutionResult => e !== undefined && e.endedBy !== 'interrupted');
  const perRepeat = ran.map((e) => evaluateTest(test, e, run.context).map(shownAssertion));
  const across = ran.length > 0 ? evaluateLatencyAcrossRepeats(test, ran).map(shownAssertion) : [];
  const summary = summariseRepeats(perRepeat, test.minPass, across);
  let evaluated = 0;
  const repeats = run.executions.map((e, i) =>
    e === undefined ? notRun(i) : e.endedBy === 'interrupted' ? cutShort(i, e) : repeatResult(i, e, perRepeat[evaluated++]!),
  );
  const status = testStatus(summary.status, repeats, across, ran.length < run.executions.length);
  const message = status === 'not_run' ? `${notRunReason(run.stopped)} (${ran.length} of ${run.executions.length} repeats ran)` : summary.message;
  return testResult(run, {
    status,
    message: escapeControls(message),
    passed: summary.passed,
    wall_ms: stats(ran.filter((e) => e.status === 'ok').map((e) => e.wallMs)),
    step_latency_ms: stepStats(ran),
    across_repeats: across,
    repeats,
  });
}

type Judged = Pick<TestResult, 'status' | 'message' | 'passed' | 'wall_ms' | 'step_latency_ms' | 'across_repeats' | 'repeats'>;

/**
 * The test's result, its members in the report's order. One literal without a spread: V8 adds
 * each member written after a spread through a runtime call (~1 µs each), once per test.
 */
function testResult({ test, transport }: TestRun, judged: Judged): TestResult {
  return {
    id: test.id,
    file: test.file,
    line: test.line,
    col: test.col,
    flow: test.flow,
    name: test.name,
    transport,
    repeat: test.repeat,
    min_pass: test.minPass,
    status: judged.status,
    message: judged.message,
    passed: judged.passed,
    wall_ms: judged.wall_ms,
    step_latency_ms: judged.step_latency_ms,
    across_repeats: judged.across_repeats,
    repeats: judged.repeats,
  };
}

export function stats(samples: readonly number[]): LatencyStats | null {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return {
    count: sorted.length,
    min: round(sorted[0]!),
    p50: round(percentileOfSorted(sorted, 50)!),
    p95: round(percentileOfSorted(sorted, 95)!),
    max: round(sorted.at(-1)!),
  };
}

// A test with repeats left unstarted by --bail passes nothing it did not run: it fails when a
// repeat that ran failed, and is otherwise not run (not skipped: a skip is the test file's or the
// tenant's word). Errors are failures where nothing but the execution itself (timeout, transport)
// went wrong.
function testStatus(
  summary: TestStatus,
  repeats: readonly RepeatResult[],
  across: readonly AssertionResult[],
  incomplete: boolean,
): TestStatus {
  const failing = repeats.filter((r) => r.status === 'fail' || r.status === 'error');
  if (incomplete) {
    if (failing.length === 0) return 'not_run';
  } else if (summary !== 'fail') return summary;
  const acrossFailed = across.some((a) => a.status === 'fail');
  return !acrossFailed && failing.length > 0 && failing.every((r) => r.status === 'error') ? 'error' : 'fail';
}

function repeatResult(i: number, e: ExecutionResult, assertions: AssertionResult[]): RepeatResult {
  const failed = assertions.some((a) => a.status === 'fail');
  const allSkipped = assertions.length > 0 && assertions.every((a) => a.status === 'skip');
  // Members in the report's order, the optional ones set as they come (no spread: see testResult).
  const result: RepeatResult = { index: i + 1, status: e.status === 'error' ? 'error' : failed ? 'fail' : allSkipped ? 'skip' : 'pass', execution: e.status } as RepeatResult;
  result.ended_by = e.endedBy;
  if (e.error !== undefined) result.error = escapeControls(e.error);
  result.wall_ms = round(e.wallMs);
  result.steps = (e.steps ?? []).map(stepRecord);
  result.messages = (e.messages ?? []).map((m, k) => messageRecord(m, e.messageAtMs?.[k]));
  if (e.outputs !== undefined) result.outputs = e.outputs;
  result.assertions = assertions;
  if (e.ids) result.ids = idsRecord(e.ids);
  return result;
}

/** A repeat an interruption ended: what it had received, not judged. */
function cutShort(i: number, e: ExecutionResult): RepeatResult {
  return { ...repeatResult(i, e, []), status: 'not_run' };
}

function notRun(i: number): RepeatResult {
  return { index: i + 1, status: 'not_run', execution: 'not_run', wall_ms: null, steps: [], messages: [], assertions: [] };
}

function stepStats(executions: readonly ExecutionResult[]): Record<string, LatencyStats> {
  const byService = new Map<string, number[]>();
  for (const e of executions) {
    if (e.status === 'error') continue;
    for (const s of e.steps ?? []) {
      const samples = byService.get(s.service);
      if (samples) samples.push(s.latencyMs);
      else byService.set(s.service, [s.latencyMs]);
    }
  }
  const out: Record<string, LatencyStats> = {};
  for (const [service, samples] of byService) {
    const s = stats(samples);
    if (s) out[service] = s;
  }
  return out;
}

/** Wall-clock to a tenth of a millisecond: finer is noise. */
function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

// The records of a repeat (a step, a message, the ids) are written member by member, in the
// report's order: a literal of conditional spreads costs V8 a runtime call per spread, and these
// are made for every step and message of every execution.

function stepRecord(s: ExecutionLogEntry): StepRecord {
  const step: StepRecord = { count: s.count, service: s.service, status: s.status, latency_ms: Number.isFinite(s.latencyMs) ? s.latencyMs : null };
  if (s.serviceType !== undefined) step.service_type = s.serviceType;
  if (s.stopExecution !== undefined) step.stop_execution = s.stopExecution;
  return step;
}

function messageRecord(m: WsServerMessage, atMs: number | undefined): MessageRecord {
  const message: MessageRecord = { state: m.state, status_code: Number.isFinite(m.statusCode) ? m.statusCode : null };
  if (m.nodeId !== undefined) message.node_id = m.nodeId;
  if (m.messageId !== undefined) message.message_id = m.messageId;
  if (atMs !== undefined) message.at_ms = round(atMs);
  return message;
}

function idsRecord(ids: ExecutionIds): ExecutionIdsRecord {
  const record: ExecutionIdsRecord = {};
  if (ids.flowId !== undefined) record.flow_id = ids.flowId;
  if (ids.executionId !== undefined) record.execution_id = ids.executionId;
  if (ids.connectionId !== undefined) record.connection_id = ids.connectionId;
  if (ids.messageIds !== undefined) record.message_ids = ids.messageIds;
  return record;
}

