/**
 * The counts of a run, derived from its results: what a report's `summary` holds when `roleflow
 * test` and `report merge` write it, and what `promote` recounts to check a report's summary.
 */

/** What counting reads of a result: its status and whether each repeat's execution ran. */
export interface CountedResult {
  status: string;
  repeats: readonly { execution: string }[];
}

export interface RunCounts {
  /** Tests × transports. */
  tests: number;
  passed: number;
  /** Failed, errors included. */
  failed: number;
  /** Of the failed: those where only errors (timeouts, transport problems) failed. */
  errored: number;
  /** Skipped by the test file (`skip`), or over a transport the tenant lacks. */
  skipped: number;
  /** Left unstarted or cut short (wholly or in part) when `--bail` or an interruption stopped the run: neither passed nor skipped. */
  not_run: number;
  /** Executions that ran. */
  executions: number;
}

export function countResults(results: readonly CountedResult[]): RunCounts {
  const counts: RunCounts = { tests: results.length, passed: 0, failed: 0, errored: 0, skipped: 0, not_run: 0, executions: 0 };
  for (const result of results) {
    if (result.status === 'pass') counts.passed++;
    else if (result.status === 'fail') counts.failed++;
    else if (result.status === 'error') {
      counts.failed++;
      counts.errored++;
    } else if (result.status === 'skip') counts.skipped++;
    else if (result.status === 'not_run') counts.not_run++;
    for (const repeat of result.repeats) if (repeat.execution !== 'not_run') counts.executions++;
  }
  return counts;
}
