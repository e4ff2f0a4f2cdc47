import { roundRobinPlan } from './shards/balance.js';
import type { Parsed } from '../flows/types.js';

export interface Shard {
  /** 1-based, as written in `--shard 2/4`. */
  index: number;
  total: number;
}

/** `"2/4"` → `{index: 2, total: 4}`. */
export function parseShard(text: string): Parsed<Shard> {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return { ok: false, error: `invalid --shard ${JSON.stringify(text)}: write I/N, like 2/4 (shard 2 of 4)` };
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1) return { ok: false, error: `invalid --shard ${JSON.stringify(text)}: the number of shards must be at least 1` };
  if (index < 1 || index > total) {
    return { ok: false, error: `invalid --shard ${JSON.stringify(text)}: the shard must be between 1 and ${total}` };
  }
  return { ok: true, value: { index, total } };
}

/**
 * The tests of shard `index` (1-based) of `total`, in their given order: the round-robin plan
 * (`roundRobinPlan`: sorted ids dealt in turn), so the slice depends only on the set of ids — not
 * on the order files were found in, which may differ between machines. (Adding a test moves the
 * ones sorted after it; every shard of one run sees the same list, so the slices still cover it
 * exactly once.)
 */
export function selectShard(testIds: readonly string[], index: number, total: number): string[] {
  const { shardOf } = roundRobinPlan(testIds, total);
  return testIds.filter((id) => shardOf.get(id) === index);
}
