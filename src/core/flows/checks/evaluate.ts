import type { ExecutionLogEntry } from '../../model.js';
import { latencyResults, NO_LOGS_OVER_WS } from './latency-check.js';
import { snapshotKey } from './snapshot.js';
import { checkOutput, show, type OutputWith } from './operators.js';
import { valueAt } from '../path.js';
import { skipped, verdict } from '../result.js';
import type { AssertionContext, AssertionResult, ExecutionResult, FlowTest, OutputAssertion, StepsExpectation } from '../types.js';

/** `each` keys are the service's field names; entries are normalised (see model.ts). */
const ENTRY_FIELDS: Record<string, keyof ExecutionLogEntry> = {
  status: 'status',
  service: 'service',
  service_type: 'serviceType',
  identity: 'identity',
  flow_id: 'flowId',
};

/**
 * Every assertion of one test against one execution (one repeat over one transport), in the
 * order written: outputs, steps, then `max` latency budgets (p50/p95/p99 need every repeat: see
 * `evaluateLatencyAcrossRepeats`). An execution that failed or errored adds a failing
 * `execution` result first. After an error (timeout, network) nothing else is checked: all is
 * skipped with the error as the reason. Data the transport cannot supply is skipped, never passed.
 */
export function evaluateTest(test: FlowTest, execution: ExecutionResult, context: AssertionContext = {}): AssertionResult[] {
  const results = [
    ...test.expect.outputs.map((a) => outputResult(a, execution, test, context)),
    ...stepsResults(test.expect.steps, execution),
    ...latencyResults(test, [execution], ['max']),
  ];
  if (execution.status === 'ok') return results;
  const error = execution.error ?? (execution.status === 'failed' ? 'the flow failed' : 'the execution did not finish');
  const head: AssertionResult = {
    kind: 'execution',
    label: 'execution',
    status: 'fail',
    message: error,
    line: test.line,
    col: test.col,
  };
  if (execution.status === 'failed') return [head, ...results];
  return [head, ...results.map((r) => skipped(r.kind, r.label, `not checked: ${error}`, r))];
}

function outputResult(a: OutputAssertion, execution: ExecutionResult, test: FlowTest, context: AssertionContext): AssertionResult {
  const label = `${a.path} ${a.not ? 'not ' : ''}${a.operator}${(a.operator === 'schema' && typeof a.expected !== 'string') || a.operator === 'snapshot' ? '' : ` ${show(a.expected)}`}`;
  if (execution.transport === 'https' && execution.outputs === undefined) {
    return skipped('output', label, 'the HTTPS execution logs carry no outputs', a);
  }
  const using: OutputWith = {};
  if (a.operator === 'snapshot') {
    const base = context.snapshots?.get(snapshotKey(test.name, execution.transport, a.path));
    if (base) using.snapshot = base;
    if (context.ci) using.ci = true;
    if (context.mask) using.mask = context.mask;
  }
  if (a.operator === 'not_leaks') {
    const index = context.leaks?.(String(a.expected), a.minChars ?? 0);
    if (index === undefined) return skipped('output', label, `no role files were read for Role ${show(a.expected)}`, a);
    using.leaks = index;
  }
  if (a.operator === 'schema' && a.check === undefined) return skipped('output', label, 'the schema file was not read', a);
  if (a.operator === 'judge') return judgeResult(a, label, execution.outputs, context);
  const v = checkOutput(a, execution.outputs, using);
  // The diff set after, not spread in: this runs for every assertion of every execution.
  const result: AssertionResult = {
    kind: 'output',
    label,
    status: v.pass ? 'pass' : 'fail',
    expected: v.expected,
    actual: v.actual,
    message: v.message,
    line: a.line,
    col: a.col,
  };
  if (v.diff !== undefined) result.diff = v.diff;
  return result;
}

/**
 * A `judge` assertion: the verdict the runner got for this output (`context.judged`), passing when
 * the majority of votes passed and, with `min_score`, their mean score reaches it. `--no-judge`,
 * or an output that was not judged, is skipped: never passed.
 */
function judgeResult(a: OutputAssertion, label: string, outputs: unknown, context: AssertionContext): AssertionResult {
  const j = a.judge!;
  if (context.noJudge) return skipped('output', label, '--no-judge: judge assertions are skipped, never passed', a);
  const { found, value } = valueAt(outputs, a.segments);
  const expected = `judge ${j.name} passes: ${show(j.rubric)}${j.minScore === undefined ? '' : ` (score >= ${j.minScore})`}`;
  if (!found) return verdict('output', label, a, { pass: false, expected, actual: 'nothing (path not found)' });
  const record = context.judged?.(a, value);
  if (record === undefined) return skipped('output', label, `judge ${j.name} did not judge this output`, a);
  const scoreOk = j.minScore === undefined || (record.score !== undefined && record.score >= j.minScore);
  const pass = record.verdict === 'pass' && scoreOk;
  const score = record.score === undefined ? '' : ` score ${Math.round(record.score * 1000) / 1000}`;
  const actual = `${record.verdict}${score}${record.cached ? ' (reused)' : ''}${record.reasons.length > 0 ? `: ${record.reasons.join(' | ')}` : ''}`;
  const why = record.verdict === 'pass' && !scoreOk ? (record.score === undefined ? ' (the judge gave no score)' : ` (below min_score ${j.minScore})`) : '';
  const result: AssertionResult = {
    kind: 'output',
    label,
    status: pass ? 'pass' : 'fail',
    expected,
    actual,
    message: `${a.path}: judge ${j.name} ${pass ? 'passed' : 'failed'} it${why}: ${actual}`,
    line: a.line,
    col: a.col,
  };
  result.judge = record;
  return result;
}

// Each check is made only when the transport has a log to check (over WebSocket it is skipped),
// written out: no closure or tuple per check, for every execution.
function stepsResults(steps: StepsExpectation | undefined, execution: ExecutionResult): AssertionResult[] {
  const results: AssertionResult[] = [];
  if (!steps) return results;
  const log = execution.steps ?? [];
  const overWs = execution.transport === 'ws';
  if (steps.count) {
    const n = steps.count.value;
    const label = `steps.count ${n}`;
    results.push(overWs ? skipped('steps', label, NO_LOGS_OVER_WS, steps.count) : verdict('steps', label, steps.count, { pass: log.length === n, expected: `${n} steps`, actual: `${log.length} steps (${list(log)})` }));
  }
  if (steps.sequence) {
    const want = steps.sequence.value;
    const label = `steps.sequence ${want.join(' → ')}`;
    results.push(overWs ? skipped('steps', label, NO_LOGS_OVER_WS, steps.sequence) : verdict('steps', label, steps.sequence, checkSequence(want, log)));
  }
  if (steps.each) {
    const want = steps.each.value;
    const wantText = Object.entries(want).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
    const label = `steps.each ${wantText}`;
    results.push(overWs ? skipped('steps', label, NO_LOGS_OVER_WS, steps.each) : verdict('steps', label, steps.each, checkEach(want, wantText, log)));
  }
  return results;
}

/** The wanted services appear in the log in this order, as a subsequence: other steps may come between. */
function checkSequence(want: readonly string[], log: readonly ExecutionLogEntry[]) {
  let from = 0;
  let missing: string | undefined;
  for (const name of want) {
    const at = log.findIndex((e, i) => i >= from && e.service === name);
    if (at < 0) {
      missing = name;
      break;
    }
    from = at + 1;
  }
  const why = missing === undefined ? undefined : `"${missing}" missing or out of order`;
  return { pass: missing === undefined, expected: `${want.join(' → ')} in this order`, actual: list(log), ...(why && { why }) };
}

function checkEach(want: Record<string, string>, wantText: string, log: readonly ExecutionLogEntry[]) {
  const keys = Object.keys(want);
  const offenders: string[] = [];
  log.forEach((entry, i) => {
    for (const k of keys) {
      const field = fieldOf(entry, k);
      if (field !== want[k]) offenders.push(`step ${i + 1} "${entry.service}" ${k} ${show(field)}`);
    }
  });
  const shown = offenders.slice(0, 3).join('; ') + (offenders.length > 3 ? ` (+${offenders.length - 3} more)` : '');
  const actual = log.length === 0 ? 'no steps were logged' : offenders.length === 0 ? `${log.length} steps` : shown;
  return { pass: log.length > 0 && offenders.length === 0, expected: `${wantText} on every step`, actual };
}

function fieldOf(entry: ExecutionLogEntry, key: string): unknown {
  const field = ENTRY_FIELDS[key];
  return field === undefined ? undefined : entry[field];
}

function list(log: readonly ExecutionLogEntry[]): string {
  return log.length === 0 ? 'no steps' : log.map((e) => e.service).join(' → ');
}
