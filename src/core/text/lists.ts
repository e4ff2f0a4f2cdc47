/**
 * `items` grouped by `key`, each group in the items' order, the groups in the order their keys
 * first appear; an item whose key is undefined is left out.
 */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/*
 * maxOf, minOf and pushAll: what `Math.max(...values)` and `list.push(...items)` do, for arrays of
 * any length: a spread passes each element as an argument, and past some 100,000 of them V8 throws
 * "Maximum call stack size exceeded" (a WebSocket execution may hold that many messages).
 */

/** The largest of `values` and `floor`. */
export function maxOf(values: Iterable<number>, floor = -Infinity): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The smallest of `values` and `ceiling`. */
export function minOf(values: Iterable<number>, ceiling = Infinity): number {
  let min = ceiling;
  for (const v of values) if (v < min) min = v;
  return min;
}

/** Append every item to `target`, in order; returns it. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
