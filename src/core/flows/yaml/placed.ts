import { unescapeSegment } from '../../text/yaml-source.js';

/** What `simple-yaml.ts` reads: each value with where it starts, so a JSON pointer can be located. */

/** A value and where it starts (its `range[0]` in the `yaml` package's document). */
export interface Placed {
  value: unknown;
  at: number;
  /** A mapping's entries: where each key starts, and its value. */
  entries?: Map<string, { keyAt: number; node: Placed }>;
  items?: Placed[];
}

/**
 * `offsetOf` of core/text/yaml-source.ts over what `simple-yaml.ts` placed, for `parsePointer(pointer)`: the
 * pointer read in place, one segment at a time (no array of segments; this runs for every test and
 * assertion loaded).
 */
export function offsetOf(root: Placed, pointer: string, key: string | undefined): number {
  let node = root;
  if (pointer !== '' && pointer !== '/') {
    for (let start = 1; start <= pointer.length; ) {
      let end = pointer.indexOf('/', start);
      if (end < 0) end = pointer.length;
      const next = child(node, unescapeSegment(pointer.slice(start, end)));
      if (!next) return node.at;
      node = next.node;
      start = end + 1;
    }
  }
  if (key === undefined) return node.at;
  const last = child(node, key);
  return last === undefined ? node.at : node.entries ? last.keyAt : last.node.at;
}

/** The entry under `segment` of a mapping, or the item of a sequence (`keyAt` is the item's start). */
function child(node: Placed, segment: string): { keyAt: number; node: Placed } | undefined {
  if (node.entries) return node.entries.get(segment);
  const item = node.items?.[Number(segment)];
  return item && { keyAt: item.at, node: item };
}
