import { describe, expect, it } from 'vitest';
import { planShards, shardConcurrency, shardFromEnv, shardMatrix } from '../../../../src/core/runs/shards/index.js';

const suite = (tenant: string, tests: number, ms: number, concurrency = 1, concurrencyTotal?: number) => ({
  tenant,
  durations: new Map(Array.from({ length: tests }, (_, i) => [`t${i}`, ms])),
  concurrency,
  ...(concurrencyTotal !== undefined && { concurrencyTotal }),
});

describe('roleflow shards: how many shards a suite needs', () => {
  it('takes the fewest shards whose longest ends within the target', () => {
    // 40 tests of a minute, one at a time: 10 minutes per shard needs 4 shards.
    const plan = planShards([suite('staging', 40, 60_000)], { targetMinutes: 10, maxJobs: 256 });
    expect(plan).toMatchObject({ ok: true, value: [{ tenant: 'staging', shards: 4, estimatedMinutes: 10, withinTarget: true }] });
  });

  it('divides flows.concurrency_total among the shards: past the budget more shards do not help', () => {
    // 8 at once across the tenant: 1 shard runs 8 at once, 2 shards 4 each… the time stays 5 minutes.
    const plan = planShards([suite('staging', 40, 60_000, 4, 8)], { targetMinutes: 1, maxJobs: 8 });
    expect(plan.ok && plan.value[0]).toMatchObject({ shards: 1, concurrency: 8, estimatedMinutes: 5, withinTarget: false });
  });

  it('keeps the whole matrix within --max-jobs, taking shards from the widest tenant', () => {
    const plan = planShards([suite('a', 40, 60_000), suite('b', 40, 60_000)], { targetMinutes: 10, maxJobs: 6 });
    expect(plan.ok && plan.value.map((p) => [p.tenant, p.shards])).toEqual([
      ['a', 3],
      ['b', 3],
    ]);
    expect(planShards([suite('a', 1, 1), suite('b', 1, 1)], { targetMinutes: 10, maxJobs: 1 })).toMatchObject({ ok: false });
  });

  it('prints a GitHub Actions matrix of tenant × shard', () => {
    const plan = planShards([suite('a', 2, 60_000), suite('b', 1, 1)], { targetMinutes: 1, maxJobs: 10 });
    expect(plan.ok && shardMatrix(plan.value)).toEqual({
      include: [
        { tenant: 'a', shard: '1/2' },
        { tenant: 'a', shard: '2/2' },
        { tenant: 'b', shard: '1/1' },
      ],
    });
  });
});

describe('shardConcurrency', () => {
  it('is max(1, floor(total / N)) with flows.concurrency_total, capped by --concurrency; else as asked', () => {
    expect(shardConcurrency({ configured: 4, shards: 3 })).toBe(4);
    expect(shardConcurrency({ requested: 9, configured: 4, shards: 3 })).toBe(9);
    expect(shardConcurrency({ configured: 4, total: 32, shards: 3 })).toBe(10);
    expect(shardConcurrency({ configured: 4, total: 2, shards: 3 })).toBe(1);
    expect(shardConcurrency({ requested: 5, configured: 4, total: 32, shards: 3 })).toBe(5);
    expect(shardConcurrency({ requested: 50, configured: 4, total: 32, shards: 1 })).toBe(32);
  });
});

describe('--shard auto', () => {
  it('reads Kubernetes, Buildkite and CircleCI, 0-based there, 1-based here', () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '0' }, 4)).toMatchObject({ ok: true, value: { index: 1, total: 4 } });
    expect(shardFromEnv({ BUILDKITE_PARALLEL_JOB: '2', BUILDKITE_PARALLEL_JOB_COUNT: '3' }, undefined)).toMatchObject({ ok: true, value: { index: 3, total: 3 } });
    expect(shardFromEnv({ CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '2' }, undefined)).toMatchObject({ ok: true, value: { index: 2, total: 2, source: expect.stringContaining('CircleCI') } });
  });

  it('says what is missing or wrong in one line', () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '0' }, undefined)).toMatchObject({ ok: false, error: expect.stringContaining('--shard-total') });
    expect(shardFromEnv({}, undefined)).toMatchObject({ ok: false, error: expect.stringContaining('no shard index in the environment') });
    expect(shardFromEnv({ CIRCLE_NODE_INDEX: '2', CIRCLE_NODE_TOTAL: '2' }, undefined)).toMatchObject({ ok: false, error: expect.stringContaining('counts from 0') });
    expect(shardFromEnv({ BUILDKITE_PARALLEL_JOB: 'x', BUILDKITE_PARALLEL_JOB_COUNT: '2' }, undefined)).toMatchObject({ ok: false });
    expect(shardFromEnv({ BUILDKITE_PARALLEL_JOB: '0' }, undefined)).toMatchObject({ ok: false, error: expect.stringContaining('BUILDKITE_PARALLEL_JOB_COUNT') });
  });

  it('refuses a --shard-total that the CI system\'s own total contradicts, rather than ignore it', () => {
    expect(shardFromEnv({ CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '2' }, 3)).toMatchObject({ ok: false, error: expect.stringContaining('--shard-total 3 but CIRCLE_NODE_TOTAL=2') });
    expect(shardFromEnv({ BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '4' }, 3)).toMatchObject({ ok: false });
    expect(shardFromEnv({ CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '2' }, 2)).toMatchObject({ ok: true, value: { index: 1, total: 2 } });
  });
});
