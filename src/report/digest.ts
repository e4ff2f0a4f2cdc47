import type { AssertionResult, Transport } from '../core/flows/index.js';
import type { Shard } from '../core/runs/index.js';
import { stats } from './build.js';
import { NumberBuffer } from '../core/runs/growable.js';
import { escapeControls } from '../core/text/safe-text.js';
import type { ExecutionIdsRecord, FlowLatency, LatencyStats, RunReport, TestResult } from './model.js';

/** One assertion as reporters list it: the first occurrence, and in how many repeats it came. */
export interface AssertionGroup {
  assertion: AssertionResult;
  /** Repeats it appeared in; 0 for a budget judged across the repeats. */
  repeats: number;
}

/**
 * The assertions of a test × transport with `status`, the same one in several repeats listed once
 * (an execution error is grouped by its text, the rest by where it is written and its label).
 */
export function groupAssertions(r: TestResult, status: AssertionResult['status']): AssertionGroup[] {
  const groups = new Map<string, AssertionGroup>();
  const add = (a: AssertionResult, inRepeat: boolean) => {
    if (a.status !== status) return;
    const key = `${a.kind}:${a.line}:${a.col}:${a.kind === 'execution' ? a.message : a.label}`;
    const group = groups.get(key);
    if (group) group.repeats += inRepeat ? 1 : 0;
    else groups.set(key, { assertion: a, repeats: inRepeat ? 1 : 0 });
  };
  for (const repeat of r.repeats) for (const a of repeat.assertions) add(a, true);
  for (const a of r.across_repeats) add(a, false);
  return [...groups.values()];
}

/**
 * How many repeats passed, `3/5`. A failed test whose repeats passed often enough (a budget
 * judged across them failed) says `failed across repeats`, never a `5/5` that reads as a pass.
 */
export function repeatsText(r: TestResult): string {
  if ((r.status === 'fail' || r.status === 'error') && r.passed >= r.min_pass) return 'failed across repeats';
  return `${r.passed}/${r.repeat}`;
}

/**
 * Executions that ended because nothing more came, not because their `until` was reached (the
 * flow may have been cut short): `ended by quiet in 2 of 3 repeats, no until reached`; undefined
 * when none did.
 */
export function quietEndText(r: TestResult): string | undefined {
  const quiet = r.repeats.filter((x) => x.ended_by === 'quiet').length;
  if (quiet === 0) return undefined;
  return `ended by quiet${r.repeat > 1 ? ` in ${quiet} of ${r.repeat} repeats` : ''}, no until reached`;
}

/** The failed snapshots of a test × transport, each once, with the diff snapshot (`-`) to received (`+`). */
export function snapshotDiffs(r: TestResult): { assertion: AssertionResult; diff: string }[] {
  return groupAssertions(r, 'fail').flatMap((g) => (g.assertion.diff === undefined ? [] : [{ assertion: g.assertion, diff: g.assertion.diff }]));
}

export interface FlowLatencyRow {
  flow: string;
  transport: Transport;
  pass: number;
  /** Errors included. */
  fail: number;
  skip: number;
  /** Left unstarted by --bail. */
  notRun: number;
  /** Client wall-clock of every finished execution of the flow over this transport. */
  wall: LatencyStats | null;
  /** Server-reported latency of each logged step (HTTPS). */
  steps: Record<string, LatencyStats>;
}

/** Results by flow × transport, in the order first seen, for the summary tables. */
export function flowLatencyRows(results: Iterable<TestResult>): FlowLatencyRow[] {
  const fold = new LatencyFold();
  for (const r of results) fold.add(r);
  return fold.rows();
}

/**
 * The summary tables' rows of a report: a merged report's `latency` (computed from every
 * execution of every shard as it was merged), else from its results.
 */
export function latencyRowsOf(report: Pick<RunReport, 'latency' | 'results'>): FlowLatencyRow[] {
  if (report.latency === undefined) return flowLatencyRows(report.results);
  return report.latency.map((l) => ({ flow: l.flow, transport: l.transport, pass: l.pass, fail: l.fail, skip: l.skip, notRun: l.not_run, wall: l.wall_ms, steps: l.step_latency_ms }));
}

/** Rows as a merged report records them (`RunReport.latency`). */
export function latencyRecords(rows: readonly FlowLatencyRow[]): FlowLatency[] {
  return rows.map((r) => ({ flow: r.flow, transport: r.transport, pass: r.pass, fail: r.fail, skip: r.skip, not_run: r.notRun, wall_ms: r.wall, step_latency_ms: r.steps }));
}

/**
 * Results folded one at a time into the rows of `flowLatencyRows`: counts per flow × transport,
 * and every execution's samples (client wall-clock of those that ended by their rule; each step's
 * reported latency of those that ran to an end), so percentiles are of the executions themselves.
 */
export class LatencyFold {
  private readonly entries = new Map<string, { row: FlowLatencyRow; walls: NumberBuffer; steps: Map<string, NumberBuffer> }>();

  add(r: TestResult): void {
    const key = `${r.flow}\u0000${r.transport}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const row: FlowLatencyRow = { flow: r.flow, transport: r.transport, pass: 0, fail: 0, skip: 0, notRun: 0, wall: null, steps: {} };
      entry = { row, walls: new NumberBuffer(), steps: new Map() };
      this.entries.set(key, entry);
    }
    const { row } = entry;
    if (r.status === 'pass') row.pass += 1;
    else if (r.status === 'skip') row.skip += 1;
    else if (r.status === 'not_run') row.notRun += 1;
    else row.fail += 1;
    for (const repeat of r.repeats) {
      if (repeat.execution === 'ok' && repeat.wall_ms !== null) entry.walls.push(repeat.wall_ms);
      if (repeat.execution !== 'ok' && repeat.execution !== 'failed') continue;
      for (const s of repeat.steps) {
        if (s.latency_ms === null) continue;
        let samples = entry.steps.get(s.service);
        if (!samples) entry.steps.set(s.service, (samples = new NumberBuffer()));
        samples.push(s.latency_ms);
      }
    }
  }

  rows(): FlowLatencyRow[] {
    return [...this.entries.values()].map(({ row, walls, steps }) => ({
      ...row,
      wall: stats(walls.toArray()),
      steps: Object.fromEntries(
        [...steps].flatMap(([service, samples]) => {
          const s = stats(samples.toArray());
          return s ? [[service, s]] : [];
        }),
      ),
    }));
  }
}

/** `shard 3/3 is missing`, `shards 2/4 and 4/4 are missing`. */
export function missingShardsText(missing: readonly Shard[]): string {
  const labels = missing.map((s) => `${s.index}/${s.total}`);
  if (labels.length === 1) return `shard ${labels[0]} is missing`;
  return `shards ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)} are missing`;
}

/** The tenant's names of an execution as one line: `executionId 7f3…, flowId 12…` (for error lines). */
export function idsText(ids: ExecutionIdsRecord | undefined): string {
  if (!ids) return '';
  const parts = [
    ...(ids.execution_id !== undefined ? [`executionId ${ids.execution_id}`] : []),
    ...(ids.flow_id !== undefined ? [`flowId ${ids.flow_id}`] : []),
    ...(ids.connection_id !== undefined ? [`connectionId ${ids.connection_id}`] : []),
    ...(ids.message_ids?.length ? [`messageId${ids.message_ids.length > 1 ? 's' : ''} ${shownIds(ids.message_ids)}`] : []),
  ];
  return escapeControls(parts.join(', '));
}

/**
 * The judge verdicts of a repeat's assertions, one line each, for reports without a place of their
 * own for them (JUnit's system-out): the judge, verdict, score, every reason, and the judge
 * executions on the tenant.
 */
export function judgeLines(assertions: readonly AssertionResult[]): string[] {
  return assertions.flatMap((a) => {
    const j = a.judge;
    if (!j) return [];
    const score = j.score === undefined ? '' : ` score ${Math.round(j.score * 1000) / 1000}`;
    const runs = j.executions.map((e) => idsText(e)).filter((t) => t !== '');
    return [
      escapeControls(`judge ${j.judge} on ${a.label}: ${j.verdict}${score}${j.cached ? ' (reused from the baseline report)' : ''}`),
      ...j.reasons.map((r) => `  reason: ${escapeControls(r)}`),
      ...(runs.length > 0 ? [`  judge executions: ${runs.join('; ')}`] : []),
    ];
  });
}

/** At most this many message ids on a line; the JSON report holds them all. */
const SHOWN_IDS = 10;

function shownIds(ids: readonly string[]): string {
  if (ids.length <= SHOWN_IDS) return ids.join(' ');
  return `${ids.slice(0, SHOWN_IDS - 1).join(' ')} … ${ids.at(-1)!} (${ids.length} in all; the JSON report lists every one)`;
}
