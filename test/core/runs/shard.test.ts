import { describe, expect, it } from 'vitest';
import { parseShard, selectShard } from '../../../src/core/runs/index.js';

const ids = Array.from({ length: 23 }, (_, i) => `flows/f${i % 5}.yaml > test ${i}`);

describe('selectShard', () => {
  it('puts every test in exactly one shard, for any shard count', () => {
    for (const total of [1, 2, 3, 4, 7, 23, 30]) {
      const slices = Array.from({ length: total }, (_, i) => selectShard(ids, i + 1, total));
      expect(slices.flat().sort()).toEqual([...ids].sort());
      const sizes = slices.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('does not depend on the order the tests were found in', () => {
    const shuffled = [...ids].reverse();
    for (let i = 1; i <= 4; i++) {
      expect(selectShard(shuffled, i, 4).sort()).toEqual(selectShard(ids, i, 4).sort());
    }
  });

  it('keeps the given order within a shard', () => {
    const mine = selectShard(ids, 2, 3);
    expect(mine).toEqual(ids.filter((id) => mine.includes(id)));
  });
});

describe('parseShard', () => {
  it('reads I/N', () => {
    expect(parseShard('2/4')).toEqual({ ok: true, value: { index: 2, total: 4 } });
    expect(parseShard(' 1 / 1 ')).toEqual({ ok: true, value: { index: 1, total: 1 } });
  });

  it('says what is wrong', () => {
    expect(parseShard('2of4')).toEqual({ ok: false, error: 'invalid --shard "2of4": write I/N, like 2/4 (shard 2 of 4)' });
    expect(parseShard('0/4')).toEqual({ ok: false, error: 'invalid --shard "0/4": the shard must be between 1 and 4' });
    expect(parseShard('5/4')).toEqual({ ok: false, error: 'invalid --shard "5/4": the shard must be between 1 and 4' });
    expect(parseShard('1/0')).toEqual({ ok: false, error: 'invalid --shard "1/0": the number of shards must be at least 1' });
  });
});
