import { latencyResults } from './checks/latency-check.js';
import type { AssertionResult, ExecutionResult, FlowTest } from './types.js';

/**
 * The p50/p95/p99 latency budgets of one test × transport, over all its repeats (nearest-rank
 * percentiles of the pooled samples). The runner calls this once the repeats are done.
 */
export function evaluateLatencyAcrossRepeats(test: FlowTest, executions: readonly ExecutionResult[]): AssertionResult[] {
  return latencyResults(test, executions, ['p50', 'p95', 'p99']);
}

export interface RepeatSummary {
  /** skip: every assertion was skipped (nothing this transport could check) and nothing failed. */
  status: 'pass' | 'fail' | 'skip';
  repeats: number;
  passed: number;
  minPass: number;
  message: string;
}

/**
 * One test × transport from its repeats: a repeat passes when none of its results failed; the
 * test passes when at least `minPass` repeats passed and no across-repeats result failed.
 */
export function summariseRepeats(
  results: readonly (readonly AssertionResult[])[],
  minPass: number,
  acrossRepeats: readonly AssertionResult[] = [],
): RepeatSummary {
  const repeats = results.length;
  const passed = results.filter((r) => r.every((a) => a.status !== 'fail')).length;
  const skippedAll = everySkipped(results, acrossRepeats);
  // One literal each (a spread of a common part would cost V8 a runtime call per member after it).
  const summary = (status: RepeatSummary['status'], message: string): RepeatSummary => ({ repeats, passed, minPass, status, message });
  const failedAcross = acrossRepeats.filter((a) => a.status === 'fail');
  if (passed < minPass) {
    const failedRepeats = repeats - passed;
    return summary('fail', `${passed} of ${repeats} repeat${repeats === 1 ? '' : 's'} passed, ${minPass} needed (${failedRepeats} failed)`);
  }
  if (failedAcross.length > 0) return summary('fail', failedAcross.map((a) => a.message).join('; '));
  if (skippedAll) return summary('skip', `every assertion was skipped: ${skippedAll.message}`);
  return summary('pass', `${passed} of ${repeats} repeat${repeats === 1 ? '' : 's'} passed`);
}

/**
 * The first assertion (every repeat's in order, then the across-repeats ones) when there is one
 * and every one was skipped; else undefined. Looked at in place, not copied into one array: this
 * runs for every test.
 */
function everySkipped(results: readonly (readonly AssertionResult[])[], acrossRepeats: readonly AssertionResult[]): AssertionResult | undefined {
  const skipped = (list: readonly AssertionResult[]): boolean => list.every((a) => a.status === 'skip');
  const first = results.find((list) => list.length > 0)?.[0] ?? acrossRepeats[0];
  return first !== undefined && results.every(skipped) && skipped(acrossRepeats) ? first : undefined;
}
