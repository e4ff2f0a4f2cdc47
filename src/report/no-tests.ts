import type { RunReport, TestResult } from './model.js';

/** What a user adds to accept a run that tested nothing (vitest's and Jest's name for it). */
export const PASS_WITH_NO_TESTS = '--pass-with-no-tests';

/**
 * Why no test was executed in this run, or undefined when one was (even one whose assertions were
 * all skipped: `validate` warns of those): every result is skipped without running (by `skip:`, or
 * over a transport the tenant lacks) or was not run, or there is none (`--grep` matching nothing,
 * an empty shard). One line, for the error `test` and `report merge` end with (exit 1 unless
 * `--pass-with-no-tests`) and for the Action's comment.
 */
export function noTestRanReason(report: Pick<RunReport, 'results' | 'shard' | 'selection'>): string | undefined {
  const tally = new NoTestsTally();
  for (const r of report.results) tally.add(r);
  return tally.reason(report);
}

/** `noTestRanReason` over results that go by one at a time (`report merge`). */
export class NoTestsTally {
  private executed = false;
  private count = 0;
  private readonly whys = new Map<string, number>();

  add(r: TestResult): void {
    this.count++;
    if (this.executed || r.repeats.some((repeat) => repeat.execution !== 'not_run')) {
      this.executed = true;
      return;
    }
    const why = r.status === 'skip' ? r.message : 'not run';
    this.whys.set(why, (this.whys.get(why) ?? 0) + 1);
  }

  reason(report: Pick<RunReport, 'shard' | 'selection'>): string | undefined {
    if (this.executed) return undefined;
    if (this.count === 0) {
      if (report.shard) return `no test ran: shard ${report.shard.index}/${report.shard.total} holds none of the tests selected`;
      const grep = report.selection?.grep;
      return grep === undefined ? 'no test ran: no test was selected' : `no test ran: no test matches --grep ${grep}`;
    }
    const whys = [...this.whys].map(([why, n]) => `${n}: ${why}`).join('; ');
    const all = this.count === 1 ? 'its one test × transport was' : `all ${this.count} tests × transports were`;
    return `no test ran: ${all} skipped (${whys})`;
  }
}

/** The error `test` and `report merge` end with when nothing was tested (`error: ` goes before it). */
export function noTestRanError(reason: string): string {
  return `${reason}; ${PASS_WITH_NO_TESTS} accepts a run that tests nothing`;
}
