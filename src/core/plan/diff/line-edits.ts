/**
 * The edits that turn one list of lines into another: the `diff` package's `diffArrays` (diff
 * 8.0.4, `Diff.diffWithOptionsObj` with `maxEditLength`, no timeout) step for step, so the
 * changes, and so the plans built from them, stay exactly the same (test/core/plan/line-edits.test.ts
 * compares them). What differs is only how the state is held: the best path of each diagonal in
 * an array indexed from 0 (the package indexes a JS array with negative numbers, which turns it
 * into a dictionary), and no `delete` on the path's components when they are read back. Together
 * those were most of the time a plan of thousands of updates spent diffing.
 *
 * Myers's O(N·D) search: for each edit length D, each diagonal's furthest path, extended along
 * equal lines. On a tie it prefers an insertion whose path reaches further into the old lines.
 */

/** A run of lines: kept (`added` and `removed` false), inserted or removed; `value` holds them. */
export interface LineChange {
  count: number;
  added: boolean;
  removed: boolean;
  value: string[];
}

/** A run as the search builds it, back to front. */
interface Component {
  count: number;
  added: boolean;
  removed: boolean;
  previous: Component | undefined;
}

interface Path {
  /** The last old line this path has consumed (-1: none). */
  oldPos: number;
  last: Component | undefined;
}

/** The runs from `oldLines` to `newLines`, or undefined when more than `maxEditLength` lines are edited. */
export function lineEdits(oldLines: readonly string[], newLines: readonly string[], maxEditLength: number): LineChange[] | undefined {
  const oldLen = oldLines.length;
  const newLen = newLines.length;
  const maxEdit = Math.min(newLen + oldLen, maxEditLength);
  // Diagonal k (from -maxEdit to maxEdit, its neighbours one further) is at index k + offset.
  const offset = maxEdit + 1;
  const bestPath: (Path | undefined)[] = new Array<Path | undefined>(2 * offset + 1).fill(undefined);

  /** Follow equal lines along diagonal `k`; returns the new position reached. */
  const extractCommon = (path: Path, k: number): number => {
    let oldPos = path.oldPos;
    let newPos = oldPos - k;
    let common = 0;
    while (newPos + 1 < newLen && oldPos + 1 < oldLen && oldLines[oldPos + 1] === newLines[newPos + 1]) {
      newPos++;
      oldPos++;
      common++;
    }
    if (common) path.last = { count: common, added: false, removed: false, previous: path.last };
    path.oldPos = oldPos;
    return newPos;
  };

  const start: Path = { oldPos: -1, last: undefined };
  bestPath[offset] = start;
  // Edit length 0: the lines both start with.
  const startNewPos = extractCommon(start, 0);
  if (start.oldPos + 1 >= oldLen && startNewPos + 1 >= newLen) return changesOf(start.last, oldLines, newLines);
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  for (let editLength = 1; editLength <= maxEdit; editLength++) {
    for (let k = Math.max(minDiagonal, -editLength); k <= Math.min(maxDiagonal, editLength); k += 2) {
      const removePath = bestPath[offset + k - 1];
      const addPath = bestPath[offset + k + 1];
      if (removePath) bestPath[offset + k - 1] = undefined;
      let canAdd = false;
      if (addPath) {
        const addPathNewPos = addPath.oldPos - k;
        canAdd = 0 <= addPathNewPos && addPathNewPos < newLen;
      }
      const canRemove = removePath !== undefined && removePath.oldPos + 1 < oldLen;
      if (!canAdd && !canRemove) {
        bestPath[offset + k] = undefined;
        continue;
      }
      const path = !canRemove || (canAdd && removePath!.oldPos < addPath!.oldPos) ? extended(addPath!, true, 0) : extended(removePath!, false, 1);
      const newPos = extractCommon(path, k);
      if (path.oldPos + 1 >= oldLen && newPos + 1 >= newLen) return changesOf(path.last, oldLines, newLines);
      bestPath[offset + k] = path;
      if (path.oldPos + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, k - 1);
      if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, k + 1);
    }
  }
  return undefined;
}

/** `path` one line further: an insertion (`added`) or a removal, merged into a run of the same kind. */
function extended(path: Path, added: boolean, oldPosInc: number): Path {
  const last = path.last;
  const removed = !added;
  if (last && last.added === added && last.removed === removed) {
    return { oldPos: path.oldPos + oldPosInc, last: { count: last.count + 1, added, removed, previous: last.previous } };
  }
  return { oldPos: path.oldPos + oldPosInc, last: { count: 1, added, removed, previous: last } };
}

/** The runs front to back, each with its lines (kept lines as the new side has them). */
function changesOf(last: Component | undefined, oldLines: readonly string[], newLines: readonly string[]): LineChange[] {
  const components: Component[] = [];
  for (let c = last; c; c = c.previous) components.push(c);
  components.reverse();
  const changes: LineChange[] = [];
  let newPos = 0;
  let oldPos = 0;
  for (const { count, added, removed } of components) {
    if (!removed) {
      changes.push({ count, added, removed, value: newLines.slice(newPos, newPos + count) });
      newPos += count;
      if (!added) oldPos += count;
    } else {
      changes.push({ count, added, removed, value: oldLines.slice(oldPos, oldPos + count) });
      oldPos += count;
    }
  }
  return changes;
}
