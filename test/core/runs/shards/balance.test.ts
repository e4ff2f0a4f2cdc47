import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { durationsOf, estimatedDurations, roundRobinPlan, shardLoads, timedPlan } from '../../../../src/core/runs/shards/index.js';

/** One test 10x as long as each of the others. */
function skewed(others: number): Map<string, number> {
  const durations = new Map<string, number>([['flows/slow.yaml > the long one', 10_000]]);
  for (let i = 0; i < others; i++) durations.set(`flows/f${i % 7}.yaml > test ${String(i).padStart(3, '0')}`, 1_000);
  return durations;
}

const longest = (loads: readonly number[]) => Math.max(...loads);
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

describe('shards balanced by past duration', () => {
  it('keeps the longest of 4 shards within 1.25x of the ideal when one test takes 10x the others; round-robin does not', () => {
    for (const others of [30, 50, 101]) {
      const durations = skewed(others);
      const ids = [...durations.keys()];
      const ideal = sum(durations.values()) / 4;
      const timed = timedPlan(ids, durations, 4);
      expect(longest(timed.loads) / ideal).toBeLessThanOrEqual(1.25);
      const robin = roundRobinPlan(ids, 4);
      expect(longest(shardLoads(robin.shardOf, durations, 4)) / ideal).toBeGreaterThan(1.25);
    }
  });

  it('puts every test in exactly one shard, the same plan whatever order the tests come in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 9 }), fc.nat(), (ids, total, seed) => {
        const durations = new Map(ids.map((id, i) => [id, ((i * 7919 + seed) % 13) * 100]));
        const plan = timedPlan(ids, durations, total);
        const shuffled = [...ids].reverse();
        const again = timedPlan(shuffled, durations, total);
        expect(again.digest).toBe(plan.digest);
        expect([...plan.shardOf.keys()].sort()).toEqual([...ids].sort());
        for (const shard of plan.shardOf.values()) expect(shard >= 1 && shard <= total).toBe(true);
      }),
    );
  });

  it('gives plans that differ different digests, and round-robin and timed plans of one dealing the same one', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const even = new Map(ids.map((id) => [id, 1]));
    expect(timedPlan(ids, even, 2).digest).not.toBe(timedPlan(ids, new Map([...even, ['a', 9]]), 2).digest);
    expect(timedPlan(ids, even, 2).digest).not.toBe(timedPlan(ids, even, 3).digest);
    // Equal durations dealt longest first to the least loaded: a→1, b→2, c→1, d→2, as round-robin does.
    expect(timedPlan(ids, even, 2).digest).toBe(roundRobinPlan(ids, 2).digest);
  });

  it('counts a test it has no duration for as the median of those it has', () => {
    const recorded = new Map([
      ['a', 100],
      ['b', 300],
      ['c', 900],
    ]);
    expect(estimatedDurations(['a', 'b', 'c', 'new'], recorded).get('new')).toBe(300);
    expect(estimatedDurations(['x', 'y'], new Map()).get('x')).toBe(1);
  });

  it('reads durations from a report: every repeat and transport of a test added up, untimed ones unknown', () => {
    const durations = durationsOf([
      { id: 'a', repeats: [{ wall_ms: 100 }, { wall_ms: 50 }] },
      { id: 'a', repeats: [{ wall_ms: 25 }] },
      { id: 'skipped', repeats: [{ wall_ms: null }] },
    ]);
    expect([...durations]).toEqual([['a', 175]]);
  });
});
