import { hash } from 'node:crypto';

/**
 * A shard plan: which shard (1-based) of `total` each test runs in. Every shard of one run makes
 * the same plan from the same tests (and the same timings), so each runs its slice and the slices
 * cover the suite once; `digest` names the plan, so `report merge` can tell shards of one plan
 * from shards of two.
 */
export interface ShardPlan {
  total: number;
  /** `timings`: dealt by past duration (`timedPlan`); `ids`: sorted ids round-robin (`roundRobinPlan`). */
  by: 'timings' | 'ids';
  /** Test id → its shard (1-based). */
  shardOf: ReadonlyMap<string, number>;
  /** The estimated milliseconds of each shard (index 0 is shard 1); round-robin counts 1 per test. */
  loads: number[];
  digest: string;
}

/** What timings read of a result in a JSON report: its test and its executions' wall-clock. */
export interface TimedResult {
  id: string;
  repeats: readonly { wall_ms: number | null }[];
}

/**
 * Each test's past duration from a report's results: the wall-clock of all its executions, every
 * transport and repeat added up (what it costs a shard). A test whose executions have no
 * wall-clock (skipped, not run) is not known.
 */
export function durationsOf(results: Iterable<TimedResult>): Map<string, number> {
  const durations = new Map<string, number>();
  for (const r of results) {
    let ms = 0;
    let timed = false;
    for (const repeat of r.repeats) {
      if (repeat.wall_ms === null || !Number.isFinite(repeat.wall_ms)) continue;
      ms += Math.max(0, repeat.wall_ms);
      timed = true;
    }
    if (timed) durations.set(r.id, (durations.get(r.id) ?? 0) + ms);
  }
  return durations;
}

/**
 * The tests' estimated durations: the recorded one, else the median of those recorded (1 ms when
 * none is), so a new test counts as a typical one.
 */
export function estimatedDurations(ids: readonly string[], recorded: ReadonlyMap<string, number>): Map<string, number> {
  const known = ids.flatMap((id) => (recorded.has(id) ? [recorded.get(id)!] : []));
  const fallback = median(known.length > 0 ? known : [...recorded.values()]) ?? 1;
  return new Map(ids.map((id) => [id, recorded.get(id) ?? fallback]));
}

/** The median (the lower middle one of an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}

/**
 * The tests dealt by duration (longest processing time first): the longest test first, each to
 * the shard with the least estimated time so far (the lowest-numbered among equals); equal
 * durations in id order. Deterministic: the plan depends only on the set of ids and the
 * durations, not on the order the files were found in. `durations` must hold every id
 * (`estimatedDurations`).
 */
export function timedPlan(ids: readonly string[], durations: ReadonlyMap<string, number>, total: number): ShardPlan {
  const unique = [...new Set(ids)];
  const ms = (id: string) => durations.get(id) ?? 0;
  unique.sort((a, b) => ms(b) - ms(a) || compareText(a, b));
  const heap = new LoadHeap(total);
  const shardOf = new Map<string, number>();
  for (const id of unique) shardOf.set(id, heap.take(ms(id)) + 1);
  return plan(total, 'timings', shardOf, heap.loads);
}

/**
 * The longest shard's estimated milliseconds when `durations` are dealt as `timedPlan` deals them
 * (`durations` sorted longest first): what `roleflow shards` weighs each shard count by.
 */
export function longestShardMs(sortedDurations: readonly number[], total: number): number {
  const heap = new LoadHeap(total);
  for (const ms of sortedDurations) heap.take(ms);
  return Math.max(...heap.loads);
}

/**
 * The distinct ids sorted and dealt round-robin (each counted as 1): every id lands in exactly one
 * shard, shards differ in size by at most one test, and the plan depends only on the set of ids.
 */
export function roundRobinPlan(ids: readonly string[], total: number): ShardPlan {
  const sorted = [...new Set(ids)].sort(compareText);
  const shardOf = new Map<string, number>();
  const loads = new Array<number>(total).fill(0);
  sorted.forEach((id, i) => {
    shardOf.set(id, (i % total) + 1);
    loads[i % total]! += 1;
  });
  return plan(total, 'ids', shardOf, loads);
}

/** The estimated time of each shard of `shardOf` with these durations (index 0 is shard 1). */
export function shardLoads(shardOf: ReadonlyMap<string, number>, durations: ReadonlyMap<string, number>, total: number): number[] {
  const loads = new Array<number>(total).fill(0);
  for (const [id, shard] of shardOf) loads[shard - 1]! += durations.get(id) ?? 0;
  return loads;
}

function plan(total: number, by: ShardPlan['by'], shardOf: Map<string, number>, loads: number[]): ShardPlan {
  return { total, by, shardOf, loads, digest: shardPlanDigest(total, shardOf) };
}

/**
 * `sha256:` and the hex SHA-256 of `["roleflow.shard-plan", total, [[id, shard], ...]]`, ids in
 * code-unit order: two plans with the same digest put every test in the same shard.
 */
export function shardPlanDigest(total: number, shardOf: ReadonlyMap<string, number>): string {
  const pairs = [...shardOf].sort(([a], [b]) => compareText(a, b));
  return `sha256:${hash('sha256', JSON.stringify(['roleflow.shard-plan', total, pairs]), 'hex')}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The shards by load, least first (then by index): a binary heap, so dealing n tests costs n log N. */
class LoadHeap {
  readonly loads: number[];
  private readonly heap: number[];

  constructor(total: number) {
    this.loads = new Array<number>(total).fill(0);
    this.heap = Array.from({ length: total }, (_, i) => i);
  }

  /** The least loaded shard (0-based) gets `ms`. */
  take(ms: number): number {
    const shard = this.heap[0]!;
    this.loads[shard]! += ms;
    this.sinkFrom(0);
    return shard;
  }

  private before(a: number, b: number): boolean {
    const la = this.loads[a]!;
    const lb = this.loads[b]!;
    return la < lb || (la === lb && a < b);
  }

  private sinkFrom(start: number): void {
    const heap = this.heap;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && this.before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && this.before(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }
}
