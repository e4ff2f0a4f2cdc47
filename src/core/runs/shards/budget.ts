/**
 * How many executions a shard runs at once. Without `flows.concurrency_total`, what it was asked
 * (`--concurrency`, else `flows.concurrency`). With it, the tenant's budget is shared by the N
 * shards of a run, which hit that tenant together: each runs max(1, floor(total / N)) at once, or
 * `--concurrency` when that is fewer. A run that is not sharded is one shard of one.
 */
export function shardConcurrency(opts: { requested?: number | undefined; configured: number; total?: number | undefined; shards: number }): number {
  if (opts.total === undefined) return opts.requested ?? opts.configured;
  const share = Math.max(1, Math.floor(opts.total / Math.max(1, opts.shards)));
  return opts.requested === undefined ? share : Math.min(opts.requested, share);
}
