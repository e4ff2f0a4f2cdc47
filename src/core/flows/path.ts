import type { Parsed, PathSegment } from './types.js';

/**
 * Paths into the decoded outputs: `results`, `results[0].summary`, `results[-1]` (from the end),
 * `meta["a.b"]` for keys holding dots or brackets. `results.0.summary` also indexes the array
 * (handy inside a YAML `{ }`, where `[0]` needs quotes); on an object, `0` is a key.
 */
export function parsePath(path: string): Parsed<PathSegment[]> {
  const segments: PathSegment[] = [];
  const fail = (why: string): Parsed<PathSegment[]> => ({
    ok: false,
    error: `invalid path ${JSON.stringify(path)}: ${why} (write like results[0].summary)`,
  });
  let i = 0;
  while (i < path.length) {
    if (path[i] === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return fail('missing "]"');
      const inner = path.slice(i + 1, close);
      if (/^-?\d+$/.test(inner)) segments.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) segments.push(JSON.parse(inner) as string);
      else return fail(`"[${inner}]" is neither an index nor a quoted key`);
      i = close + 1;
    } else {
      if (path[i] === '.') {
        if (segments.length === 0) return fail('it starts with "."');
        i += 1;
      } else if (segments.length > 0) {
        return fail(`"." or "[" expected at character ${i + 1}`);
      }
      const m = /^[^.[\]]+/.exec(path.slice(i));
      if (!m) return fail(`empty key at character ${i + 1}`);
      segments.push(m[0]);
      i += m[0].length;
    }
  }
  if (segments.length === 0) return fail('it is empty');
  return { ok: true, value: segments };
}

/** The value at `segments`, or `found: false`. Only own keys count: `constructor` is not a key. */
export function valueAt(root: unknown, segments: readonly PathSegment[]): { found: boolean; value: unknown } {
  let node = root;
  for (const seg of segments) {
    const indexed = typeof seg === 'number' || (Array.isArray(node) && /^\d+$/.test(seg));
    if (indexed) {
      if (!Array.isArray(node)) return { found: false, value: undefined };
      const at = Number(seg);
      const index = at < 0 ? node.length + at : at;
      if (index < 0 || index >= node.length) return { found: false, value: undefined };
      node = node[index];
    } else {
      if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, seg)) {
        return { found: false, value: undefined };
      }
      node = (node as Record<string, unknown>)[seg];
    }
  }
  return { found: node !== undefined, value: node };
}
