import { compareRuns, type ComparableReport, type ComparableResult, type MetricComparison, type TestRef } from '../compare/index.js';
import { contentDiff } from '../plan/content-diff.js';
import { stableJson } from '../text/stable-json.js';

/**
 * `roleflow preview`'s comparison — pure: the same flow tests run on the base Roles and on the
 * head Roles, compared per test × transport: the verdicts, the outputs (WebSocket), the step
 * sequence (HTTPS) and the latencies (with `report compare`'s significance test).
 */

/** What preview reads of one side's run: a test report's results (`RunReport` fits). */
export interface PreviewSide extends ComparableReport {
  results: readonly PreviewResult[];
}

export interface PreviewResult extends ComparableResult {
  repeats: readonly PreviewRepeat[];
}

export interface PreviewRepeat {
  status: string;
  execution: string;
  wall_ms: number | null;
  outputs?: unknown;
  steps: readonly { service: string; status: string; latency_ms: number | null }[];
  error?: string;
  assertions: readonly { status: string; label: string; message: string }[];
}

export type PreviewVerdict = 'passed' | 'failed' | 'skipped';

/** One test × transport on both sides. A side without the test (added or removed) has no verdict. */
export interface TestPreview extends TestRef {
  base: { verdict: PreviewVerdict; message: string } | null;
  head: { verdict: PreviewVerdict; message: string } | null;
  /** The outputs of the first repeat that has some differ (WebSocket; HTTPS logs carry none). */
  outputs_changed: boolean;
  /** A unified diff of the outputs (JSON, keys sorted), when they changed. */
  outputs_diff?: string;
  /** HTTPS: the services of the first repeat's log, in order, when they differ between the sides. */
  steps_changed: boolean;
  base_steps?: string[];
  head_steps?: string[];
  /** The client wall-clock, judged as `report compare` judges it. */
  wall: MetricComparison | null;
  /** Each step's server latency whose verdict is a regression or an improvement. */
  step_latency: ({ service: string } & MetricComparison)[];
}

export interface PreviewComparison {
  tests: TestPreview[];
  summary: {
    tests: number;
    /** passed on the base, failed on the head: what `--fail-on-regression` fails on. */
    regressions: number;
    /** failed on the base, passed on the head. */
    fixed: number;
    verdict_changed: number;
    outputs_changed: number;
    steps_changed: number;
    latency_changed: number;
    unchanged: number;
  };
}

export function verdictOf(status: string): PreviewVerdict {
  return status === 'pass' ? 'passed' : status === 'fail' || status === 'error' ? 'failed' : 'skipped';
}

/** Compare the two sides; tests in the head's order, then those only the base has. */
export function comparePreview(base: PreviewSide, head: PreviewSide, threshold: number): PreviewComparison {
  const runs = compareRuns(base, head, threshold);
  const latency = new Map(runs.tests.map((t) => [keyOf(t), t]));
  const before = new Map(base.results.map((r) => [keyOf(r), r]));
  const inHead = new Set(head.results.map(keyOf));
  const tests: TestPreview[] = [];
  for (const h of head.results) tests.push(testPreview(before.get(keyOf(h)), h, latency.get(keyOf(h))));
  for (const b of base.results) if (!inHead.has(keyOf(b))) tests.push(testPreview(b, undefined, undefined));
  return { tests, summary: summarize(tests) };
}

/** Whether a test's verdict went from passed to failed: what `--fail-on-regression` fails on. */
export function isRegression(t: TestPreview): boolean {
  return t.base?.verdict === 'passed' && t.head?.verdict === 'failed';
}

export function verdictChanged(t: TestPreview): boolean {
  return t.base?.verdict !== t.head?.verdict;
}

export function latencyChanged(t: TestPreview): boolean {
  return (t.wall !== null && isSignificant(t.wall)) || t.step_latency.length > 0;
}

function testPreview(b: PreviewResult | undefined, h: PreviewResult | undefined, latency: ReturnType<typeof compareRuns>['tests'][number] | undefined): TestPreview {
  const any = (h ?? b)!;
  const outputsBefore = b && firstOutputs(b);
  const outputsAfter = h && firstOutputs(h);
  const outputsChanged = b !== undefined && h !== undefined && (outputsBefore !== undefined || outputsAfter !== undefined) && outputsBefore !== outputsAfter;
  const stepsBefore = b && firstSteps(b);
  const stepsAfter = h && firstSteps(h);
  const stepsChanged = stepsBefore !== undefined && stepsAfter !== undefined && stepsBefore.join('\u0000') !== stepsAfter.join('\u0000');
  return {
    id: any.id,
    file: any.file,
    line: any.line,
    flow: any.flow,
    name: any.name,
    transport: any.transport,
    base: b ? { verdict: verdictOf(b.status), message: why(b) } : null,
    head: h ? { verdict: verdictOf(h.status), message: why(h) } : null,
    outputs_changed: outputsChanged,
    ...(outputsChanged && { outputs_diff: contentDiff(outputsBefore ?? '', outputsAfter ?? '', 'base outputs', 'head outputs') }),
    steps_changed: stepsChanged,
    ...(stepsChanged && { base_steps: stepsBefore, head_steps: stepsAfter }),
    wall: latency?.wall ?? null,
    step_latency: (latency?.steps ?? []).filter(isSignificant),
  };
}

/** What a side says of a test: the first failing assertion or error of its first failing repeat, else its one-line result. */
function why(r: PreviewResult): string {
  for (const repeat of r.repeats) {
    if (repeat.status !== 'fail' && repeat.status !== 'error') continue;
    if (repeat.error !== undefined) return repeat.error;
    const failed = repeat.assertions.find((a) => a.status === 'fail');
    if (failed !== undefined) return failed.message;
  }
  return r.message;
}

/** The outputs of the first repeat that has some, as indented JSON with sorted keys; undefined: none. */
function firstOutputs(r: PreviewResult): string | undefined {
  const repeat = r.repeats.find((x) => x.outputs !== undefined);
  return repeat === undefined ? undefined : stableJson(repeat.outputs);
}

/** The services of the first repeat that logged steps; undefined: none did. */
function firstSteps(r: PreviewResult): string[] | undefined {
  const repeat = r.repeats.find((x) => x.steps.length > 0);
  return repeat?.steps.map((s) => (s.status === 'completed' ? s.service : `${s.service} (${s.status})`));
}

function isSignificant(m: MetricComparison): boolean {
  return m.verdict === 'regression' || m.verdict === 'improvement';
}

function summarize(tests: readonly TestPreview[]): PreviewComparison['summary'] {
  const count = (f: (t: TestPreview) => boolean) => tests.filter(f).length;
  return {
    tests: tests.length,
    regressions: count(isRegression),
    fixed: count((t) => t.base?.verdict === 'failed' && t.head?.verdict === 'passed'),
    verdict_changed: count(verdictChanged),
    outputs_changed: count((t) => t.outputs_changed),
    steps_changed: count((t) => t.steps_changed),
    latency_changed: count(latencyChanged),
    unchanged: count((t) => !verdictChanged(t) && !t.outputs_changed && !t.steps_changed && !latencyChanged(t)),
  };
}

function keyOf(r: { id: string; transport: string }): string {
  return `${r.id}\u0000${r.transport}`;
}
