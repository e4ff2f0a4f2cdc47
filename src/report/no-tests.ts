import type { RunReport } from './model.js';

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
  const results = report.results;
  if (results.some((r) => r.repeats.some((repeat) => repeat.execution !== 'not_run'))) return undefined;
  if (results.length === 0) {
    if (report.shard) return `no test ran: shard ${report.shard.index}/${report.shard.total} holds none of the tests selected`;
    const grep = report.selection?.grep;
    return grep === undefined ? 'no test ran: no test was selected' : `no test ran: no test matches --grep ${grep}`;
  }
  const counts = new Map<string, number>();
  for (const r of results) {
    const why = r.status === 'skip' ? r.message : 'not run';
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const whys = [...counts].map(([why, n]) => `${n}: ${why}`).join('; ');
  const all = results.length === 1 ? 'its one test × transport was' : `all ${results.length} tests × transports were`;
  return `no test ran: ${all} skipped (${whys})`;
}

/** The error `test` and `report merge` end with when nothing was tested (`error: ` goes before it). */
export function noTestRanError(reason: string): string {
  return `${reason}; ${PASS_WITH_NO_TESTS} accepts a run that tests nothing`;
}
