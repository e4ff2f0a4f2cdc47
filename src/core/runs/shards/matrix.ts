import { longestShardMs } from './balance.js';
import { shardConcurrency } from './budget.js';

/** What `roleflow shards` weighs: the time a CI job should take, and how many jobs there may be. */
export interface MatrixLimits {
  /** Each shard should end within this (its estimated time: its tests' durations over its concurrency). */
  targetMinutes: number;
  /** The most jobs of the whole matrix, every tenant's shards together. */
  maxJobs: number;
}

/** One tenant's suite: each test's estimated duration (`estimatedDurations`), and its concurrency settings. */
export interface TenantSuite {
  tenant: string;
  durations: ReadonlyMap<string, number>;
  /** `flows.concurrency`. */
  concurrency: number;
  /** `flows.concurrency_total`, when set. */
  concurrencyTotal?: number | undefined;
}

export interface TenantShards {
  tenant: string;
  shards: number;
  /** Executions at once in each shard (`shardConcurrency`). */
  concurrency: number;
  /** The longest shard's estimated minutes. */
  estimatedMinutes: number;
  tests: number;
  /** The estimate is within the target. */
  withinTarget: boolean;
}

/** A GitHub Actions matrix: one job per tenant × shard. */
export interface ShardMatrix {
  include: { tenant: string; shard: string }[];
}

/**
 * How many shards each tenant's suite needs: the fewest whose longest shard (tests dealt by
 * duration, run `concurrency` at once) ends within the target, else the count that ends soonest;
 * then, while the matrix holds more than `maxJobs` jobs, the tenant with the most shards gives
 * one up (the first by name among equals). More tenants than jobs is an error.
 */
export function planShards(suites: readonly TenantSuite[], limits: MatrixLimits): { ok: true; value: TenantShards[] } | { ok: false; error: string } {
  if (suites.length > limits.maxJobs) {
    return { ok: false, error: `${suites.length} tenants need at least ${suites.length} jobs, more than --max-jobs ${limits.maxJobs}` };
  }
  const targetMs = limits.targetMinutes * 60_000;
  const sorted = suites.map((s) => [...s.durations.values()].sort((a, b) => b - a));
  const estimate = (i: number, shards: number) => {
    const suite = suites[i]!;
    const concurrency = shardConcurrency({ configured: suite.concurrency, total: suite.concurrencyTotal, shards });
    return { concurrency, ms: longestShardMs(sorted[i]!, shards) / concurrency };
  };
  const counts = suites.map((suite, i) => {
    const most = Math.max(1, Math.min(limits.maxJobs, suite.durations.size));
    let best = 1;
    let bestMs = estimate(i, 1).ms;
    for (let shards = 1; shards <= most; shards++) {
      const { ms } = estimate(i, shards);
      if (ms < bestMs) [best, bestMs] = [shards, ms];
      if (ms <= targetMs) return shards;
    }
    return best;
  });
  while (counts.reduce((a, b) => a + b, 0) > limits.maxJobs) {
    let widest = 0;
    counts.forEach((n, i) => {
      if (n > counts[widest]! || (n === counts[widest]! && suites[i]!.tenant < suites[widest]!.tenant)) widest = i;
    });
    counts[widest]! -= 1;
  }
  return {
    ok: true,
    value: suites.map((suite, i) => {
      const shards = counts[i]!;
      const { concurrency, ms } = estimate(i, shards);
      return { tenant: suite.tenant, shards, concurrency, estimatedMinutes: round(ms / 60_000), tests: suite.durations.size, withinTarget: ms <= targetMs };
    }),
  };
}

/** The matrix of `planShards`: `{include: [{tenant, shard: "1/8"}, …]}`, tenant by tenant. */
export function shardMatrix(plans: readonly TenantShards[]): ShardMatrix {
  return { include: plans.flatMap((p) => Array.from({ length: p.shards }, (_, i) => ({ tenant: p.tenant, shard: `${i + 1}/${p.shards}` }))) };
}

function round(minutes: number): number {
  return Math.round(minutes * 100) / 100;
}
