import type { Parsed, Transport } from '../flows/types.js';
import { percentile } from '../flows/latency.js';
import { mannWhitneyU } from './mann-whitney.js';

/**
 * What `report compare` reads of a JSON report (`RunReport` of src/report/model.ts fits it): the
 * raw samples — each repeat's client wall-clock and each logged step's server-reported latency.
 */
export interface ComparableReport {
  results: readonly ComparableResult[];
}

export interface ComparableResult {
  id: string;
  file: string;
  line: number;
  flow: string;
  name: string;
  transport: Transport;
  status: string;
  message: string;
  repeat: number;
  passed: number;
  repeats: readonly {
    execution: string;
    wall_ms: number | null;
    steps: readonly { service: string; latency_ms: number | null }[];
  }[];
}

/** Fewer samples than this on either side: "not enough samples", never a regression. */
export const MIN_SAMPLES = 5;
/** A change is significant when the two-sided Mann–Whitney p is below this. */
export const ALPHA = 0.05;
export const DEFAULT_THRESHOLD = 0.2;

export type Verdict = 'regression' | 'improvement' | 'unchanged' | 'not_enough_samples' | 'no_samples';

export interface SampleStats {
  count: number;
  p50: number;
  p95: number;
}

/** One latency (a flow's wall-clock, or one step's server latency) before and after. */
export interface MetricComparison {
  base: SampleStats | null;
  head: SampleStats | null;
  /** (head − base) / base; null when a side has no samples or base is 0. */
  change: { p50: number | null; p95: number | null };
  /** Two-sided Mann–Whitney U p-value over the raw samples; null without enough of them. */
  p: number | null;
  verdict: Verdict;
}

export interface TestRef {
  id: string;
  flow: string;
  name: string;
  transport: Transport;
  file: string;
  line: number;
}

export interface TestComparison extends TestRef {
  base: { status: string; passed: number; repeat: number };
  head: { status: string; passed: number; repeat: number; message: string };
  wall: MetricComparison;
  steps: ({ service: string } & MetricComparison)[];
}

export interface RunComparison {
  threshold: number;
  alpha: number;
  min_samples: number;
  /** The tests × transports in both reports, in HEAD's order. */
  tests: TestComparison[];
  newly_failing: TestRef[];
  newly_passing: TestRef[];
  /**
   * Tests HEAD cannot be judged on: not run there (an interrupted run), or skipped there while
   * they passed in BASE. A regression under `--fail-on-regression` unless `allow_skipped`.
   */
  not_judged: (TestRef & { base: string | null; head: string })[];
  allow_skipped: boolean;
  added: TestRef[];
  removed: TestRef[];
  /** Latencies (wall-clock or step) judged a regression. */
  regressions: number;
  /** What `--fail-on-regression` fails on: a regression, a newly failing test, or (without `allow_skipped`) a test not judged. */
  failing: boolean;
}

/** `--threshold`: a percentage, `20%` or `20`; the fraction (0.2). */
export function parseThreshold(text: string): Parsed<number> {
  const m = /^\s*(-?)\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  if (!m) return { ok: false, error: `--threshold ${text}: give a percentage, such as 20%` };
  if (m[1] === '-' && Number(m[2]) !== 0) {
    return { ok: false, error: `--threshold ${text.trim()}: must be 0% or more: it is how much slower a p50 or p95 must get to be a regression, such as 20%` };
  }
  return { ok: true, value: Number(m[2]) / 100 };
}

/**
 * Compare two runs: per test × transport the wall-clock and each step's latency, with a verdict
 * from the threshold (on p50 or p95) and the Mann–Whitney U test; pass/fail changes; tests added
 * and removed. Keys are the test's id and transport.
 */
export function compareRuns(base: ComparableReport, head: ComparableReport, threshold = DEFAULT_THRESHOLD, options: { allowSkipped?: boolean } = {}): RunComparison {
  const key = (r: ComparableResult) => `${r.id}\u0000${r.transport}`;
  const before = new Map(base.results.map((r) => [key(r), r]));
  const afterKeys = new Set(head.results.map(key));
  const tests: TestComparison[] = [];
  const newlyFailing: TestRef[] = [];
  const newlyPassing: TestRef[] = [];
  const added: TestRef[] = [];
  const notJudged: RunComparison['not_judged'] = [];
  for (const h of head.results) {
    const b = before.get(key(h));
    if (h.status === 'not_run' || (h.status === 'skip' && b?.status === 'pass')) notJudged.push({ ...ref(h), base: b?.status ?? null, head: h.status });
    if (!b) {
      added.push(ref(h));
      continue;
    }
    if (b.status === 'pass' && isFailure(h.status)) newlyFailing.push(ref(h));
    if (isFailure(b.status) && h.status === 'pass') newlyPassing.push(ref(h));
    tests.push(compareTest(b, h, threshold));
  }
  const removed = base.results.filter((r) => !afterKeys.has(key(r))).map(ref);
  const regressions = tests.reduce((n, t) => n + [t.wall, ...t.steps].filter((m) => m.verdict === 'regression').length, 0);
  return {
    threshold,
    alpha: ALPHA,
    min_samples: MIN_SAMPLES,
    tests,
    newly_failing: newlyFailing,
    newly_passing: newlyPassing,
    not_judged: notJudged,
    allow_skipped: options.allowSkipped === true,
    added,
    removed,
    regressions,
    failing: regressions > 0 || newlyFailing.length > 0 || (notJudged.length > 0 && options.allowSkipped !== true),
  };
}

/** One latency's samples before and after, judged. */
export function compareSamples(base: readonly number[], head: readonly number[], threshold: number): MetricComparison {
  const b = sampleStats(base);
  const h = sampleStats(head);
  const change = { p50: relative(b?.p50, h?.p50), p95: relative(b?.p95, h?.p95) };
  if (!b || !h) return { base: b, head: h, change, p: null, verdict: 'no_samples' };
  if (b.count < MIN_SAMPLES || h.count < MIN_SAMPLES) return { base: b, head: h, change, p: null, verdict: 'not_enough_samples' };
  const { p } = mannWhitneyU(head, base, 'two-sided');
  const changes = [change.p50, change.p95].filter((c): c is number => c !== null);
  const slower = changes.some((c) => c > threshold) && median(head) > median(base);
  const faster = changes.some((c) => c < -threshold) && median(head) < median(base);
  const verdict: Verdict = p < ALPHA && slower ? 'regression' : p < ALPHA && faster ? 'improvement' : 'unchanged';
  return { base: b, head: h, change, p, verdict };
}

function compareTest(b: ComparableResult, h: ComparableResult, threshold: number): TestComparison {
  const services = [...new Set([...stepServices(b), ...stepServices(h)])];
  return {
    ...ref(h),
    base: { status: b.status, passed: b.passed, repeat: b.repeat },
    head: { status: h.status, passed: h.passed, repeat: h.repeat, message: h.message },
    wall: compareSamples(wallSamples(b), wallSamples(h), threshold),
    steps: services.map((service) => ({ service, ...compareSamples(stepSamples(b, service), stepSamples(h, service), threshold) })),
  };
}

/** The client wall-clock of each execution that finished ok. */
export function wallSamples(r: ComparableResult): number[] {
  return r.repeats.filter((x) => x.execution === 'ok' && x.wall_ms !== null).map((x) => x.wall_ms!);
}

/** The server-reported latency of every logged step of `service`, over every repeat. */
export function stepSamples(r: ComparableResult, service: string): number[] {
  return r.repeats.flatMap((x) => x.steps.filter((s) => s.service === service && s.latency_ms !== null).map((s) => s.latency_ms!));
}

function stepServices(r: ComparableResult): string[] {
  return r.repeats.flatMap((x) => x.steps.map((s) => s.service));
}

function sampleStats(samples: readonly number[]): SampleStats | null {
  const finite = samples.filter(Number.isFinite);
  if (finite.length === 0) return null;
  return { count: finite.length, p50: percentile(finite, 50)!, p95: percentile(finite, 95)! };
}

function median(samples: readonly number[]): number {
  return percentile(samples, 50) ?? 0;
}

function relative(before: number | undefined, after: number | undefined): number | null {
  if (before === undefined || after === undefined || before === 0) return null;
  return (after - before) / before;
}

function isFailure(status: string): boolean {
  return status === 'fail' || status === 'error';
}

function ref(r: ComparableResult): TestRef {
  return { id: r.id, flow: r.flow, name: r.name, transport: r.transport, file: r.file, line: r.line };
}
