import type { Parsed } from '../../core/flows/index.js';
import { judgePassRate } from '../../core/runs/loop/index.js';
import { countResult, emptyCounts } from '../../core/runs/index.js';
import { groupAssertions, LatencyFold, latencyRecords } from '../digest.js';
import type { HistoryEntry, RunReport, TestResult } from '../model.js';
import { NoTestsTally } from '../no-tests.js';
import { MergeHeads, type MergedHead, type MergeOptions } from './heads.js';
import { ResultIndex } from './results-index.js';

/** Where a merge keeps the results it has read, by entry number, until it writes them in order. */
export interface Spool {
  put(entry: number, result: TestResult): void;
  get(entry: number): TestResult;
}

/** A merge's results in order, and what is counted from them once all have gone by. */
export interface MergedResults {
  head: MergedHead;
  /** Each kept result, in the merged order (history added); `totals` is complete once they all went by. */
  results(): Generator<TestResult>;
  totals(): MergeTotals;
}

export interface MergeTotals {
  summary: RunReport['summary'];
  latency: NonNullable<RunReport['latency']>;
  gate?: NonNullable<RunReport['gate']>;
  /** Skipped assertions, as the console summary counts them. */
  skippedChecks: number;
  /** Why no test ran in the merged run (`noTestRanReason`); undefined when one did. */
  noTestRan: string | undefined;
}

/**
 * A merge fed one report at a time (`add`), holding of each only its head and a few numbers per
 * result (`ResultIndex`); the results themselves wait in the `spool`. `finish` checks the run
 * (shards, tenant, duplicates) and gives the results in order, folding the summary, the suite's
 * latency (from every execution) and the pass-rate gate from them as they go by.
 */
export class ReportMerge {
  private readonly heads: MergeHeads;
  private readonly index = new ResultIndex();
  private inputs = 0;

  constructor(
    private readonly spool: Spool,
    private readonly options: MergeOptions = {},
  ) {
    this.heads = new MergeHeads(options);
  }

  add(file: string, report: RunReport): Parsed<void> {
    const { results, ...head } = report;
    for (const result of results) this.addResult(result);
    return this.endReport(file, head);
  }

  /** A result of the report being read (reports are read one after the other). */
  addResult(result: TestResult): void {
    this.spool.put(this.index.add(result, this.inputs), result);
  }

  /** The report whose results were just added is over: its head; an error when it is of another tenant. */
  endReport(file: string, report: Omit<RunReport, 'results'>): Parsed<void> {
    const { summary: _summary, latency: _latency, ...head } = report;
    const added = this.heads.add(file, head);
    if (added.ok) this.inputs++;
    return added;
  }

  warnings(): string[] {
    return this.heads.warnings();
  }

  finish(): Parsed<MergedResults> {
    const conflict = this.heads.planConflict();
    if (conflict !== undefined) return { ok: false, error: conflict };
    const sameTest = (a: number, b: number) => {
      const [x, y] = [this.spool.get(a), this.spool.get(b)];
      return x.id === y.id && x.transport === y.transport;
    };
    const resolved = this.index.resolve(this.options.preferLast === true, sameTest);
    if (!resolved.ok) {
      const [earlier, later] = resolved.duplicate;
      const r = this.spool.get(later);
      const [x, y] = [this.index.inputOf(earlier), this.index.inputOf(later)];
      const [a, b] = [this.heads.fileAt(x), this.heads.fileAt(y)];
      const where = x === y ? `twice in ${a}` : `in both ${a} and ${b}`;
      const hint = x === y ? '' : ': were two reports of the same shard given? (a rerun: --prefer-last)';
      return { ok: false, error: `"${r.id}" [${r.transport}] is ${where}${hint}` };
    }
    const head = this.heads.merged();
    if (!head.ok) return head;
    const { order, groups } = resolved.value;
    const counts = emptyCounts();
    const latency = new LatencyFold();
    let skippedChecks = 0;
    const noTests = new NoTestsTally();
    const given = this.options.minPassRate;
    const passRate = given !== undefined ? { min: given, setBy: '--min-pass-rate' as const } : this.heads.passRate();
    const self = this;
    return {
      ok: true,
      value: {
        head: head.value,
        *results() {
          for (const entry of order) {
            const result = self.withHistory(entry, groups.get(entry));
            countResult(counts, result);
            latency.add(result);
            skippedChecks += groupAssertions(result, 'skip').length;
            noTests.add(result);
            yield result;
          }
        },
        totals: () => ({
          summary: counts,
          latency: latencyRecords(latency.rows()),
          ...(passRate !== undefined && { gate: judgePassRate(counts, passRate.min, head.value.bailed, passRate.setBy) }),
          skippedChecks,
          noTestRan: noTests.reason(head.value),
        }),
      },
    };
  }

  /** The kept result of `entry`; with --prefer-last, the results it replaces go into its history. */
  private withHistory(entry: number, group: number[] | undefined): TestResult {
    const result = this.spool.get(entry);
    if (group === undefined) return result;
    const history = group.flatMap((e) => {
      const r = e === entry ? result : this.spool.get(e);
      const input = this.index.inputOf(e);
      return r.history ?? [historyEntry(r, this.heads.fileAt(input), this.heads.startedAt(input))];
    });
    return { ...result, history };
  }
}

function historyEntry(r: TestResult, report: string, startedAt: string): HistoryEntry {
  return { report, started_at: startedAt, status: r.status, message: r.message, passed: r.passed, repeat: r.repeat };
}

/**
 * The merged report of reports held in memory (`report merge` streams its files through
 * `ReportMerge` instead): see `ReportMerge` and `MergeHeads`.
 */
export function mergeReports(inputs: readonly { file: string; report: RunReport }[], options: MergeOptions = {}): Parsed<RunReport> {
  const held: TestResult[] = [];
  const merge = new ReportMerge({ put: (entry, result) => (held[entry] = result), get: (entry) => held[entry]! }, options);
  if (inputs.length === 0) return { ok: false, error: 'no reports to merge' };
  for (const { file, report } of inputs) {
    const added = merge.add(file, report);
    if (!added.ok) return added;
  }
  const merged = merge.finish();
  if (!merged.ok) return merged;
  const results = [...merged.value.results()];
  return { ok: true, value: mergedReport(merged.value.head, merged.value.totals(), results) };
}

/** The merged report, its members in the order the streamed merge writes them (results last). */
export function mergedReport(head: MergedHead, totals: MergeTotals, results: TestResult[]): RunReport {
  return { ...head, summary: totals.summary, ...(totals.gate && { gate: totals.gate }), latency: totals.latency, results };
}

/** `mergeWarnings` of reports held in memory: see `MergeHeads.warnings`. */
export function mergeWarnings(inputs: readonly { file: string; report: RunReport }[]): string[] {
  const heads = new MergeHeads();
  for (const { file, report } of inputs) heads.add(file, report);
  return heads.warnings();
}
