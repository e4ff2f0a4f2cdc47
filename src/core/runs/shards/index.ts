/**
 * Shards balanced by time, the pure parts: `timedPlan` deals tests by their past duration (from a
 * report: `durationsOf`, new tests at the median: `estimatedDurations`), `roundRobinPlan` by
 * sorted id; each plan has a digest (`shardPlanDigest`) that every shard's report records.
 * `shardFromEnv` is `--shard auto`; `shardConcurrency` shares `flows.concurrency_total` among
 * the shards; `planShards` and `shardMatrix` are `roleflow shards`.
 */
export { durationsOf, estimatedDurations, median, timedPlan, roundRobinPlan, shardLoads, shardPlanDigest, longestShardMs, type ShardPlan, type TimedResult } from './balance.js';
export { shardFromEnv, type AutoShard } from './auto.js';
export { shardConcurrency } from './budget.js';
export { planShards, shardMatrix, type MatrixLimits, type TenantSuite, type TenantShards, type ShardMatrix } from './matrix.js';
