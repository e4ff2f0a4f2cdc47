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
