import { diffArrays, type ChangeObject } from 'diff';

/** Beyond this many edited lines the diff is not worth its cost (Myers is O(N·D)). */
const MAX_EDIT_LENGTH = 5000;
/** Unchanged lines shown around each change. */
const CONTEXT = 3;

/**
 * A unified diff of a Role's content, `---`/`+++` headers then hunks. Both sides get a final
 * `\n` so a diff never ends in "No newline at end of file" noise, while a change in trailing
 * line breaks still shows as an added or removed empty line.
 *
 * The hunks are those of the `diff` package's `structuredPatch` (context 3), built here from the
 * same Myers search (the package's `diffArrays`) over the same lines
 * `diffLines` makes: the same search over the same tokens gives the same changes, and it skips
 * `structuredPatch`'s joining of each run of lines into one string and splitting it again.
 *
 * `diffLines` tokenizes `${text}\n` by cutting right after every `\n` (its split on `/(\n|\r\n)/`),
 * so with the final `\n` added every token ends in one: the tokens are the pieces of
 * `text.split('\n')`, each with a `\n` after it. Two tokens are equal exactly when their pieces
 * are, so the search runs on the pieces, and a hunk's lines are joined with `\n` plus a final one.
 */
export function contentDiff(before: string, after: string, oldLabel: string, newLabel: string): string {
  const changes = diffArrays(before.split('\n'), after.split('\n'), { maxEditLength: MAX_EDIT_LENGTH });
  const header = `--- ${oldLabel}\n+++ ${newLabel}\n`;
  if (!changes) return `${header}@@ content changed in more than ${MAX_EDIT_LENGTH} lines: no diff shown @@\n`;
  // One join into one flat string: a plan holds thousands of these until it is written.
  const parts = [header];
  for (const h of hunksOf(changes)) parts.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`, h.lines.join('\n'), '\n');
  return parts.join('');
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/**
 * `structuredPatch`'s hunk building (diff 8, `diffLinesResultToPatch`), step for step, over
 * changes whose values are already the lines. Kept identical so plans stay byte for byte the
 * same; the lines are without their line breaks (see `contentDiff`).
 */
function hunksOf(changes: ChangeObject<string[]>[]): Hunk[] {
  const diff: ChangeObject<string[]>[] = [...changes, { value: [], count: 0, added: false, removed: false }];
  const pushContext = (range: string[], lines: string[]): void => {
    for (const line of lines) range.push(` ${line}`);
  };
  const hunks: Hunk[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let curRange: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < diff.length; i++) {
    const current = diff[i]!;
    const lines = current.value;
    if (current.added || current.removed) {
      if (!oldRangeStart) {
        const prev = diff[i - 1];
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (prev) {
          curRange = [];
          pushContext(curRange, prev.value.slice(-CONTEXT));
          oldRangeStart -= curRange.length;
          newRangeStart -= curRange.length;
        }
      }
      const sign = current.added ? '+' : '-';
      for (const line of lines) curRange.push(sign + line);
      if (current.added) newLine += lines.length;
      else oldLine += lines.length;
    } else {
      if (oldRangeStart) {
        if (lines.length <= CONTEXT * 2 && i < diff.length - 2) {
          pushContext(curRange, lines);
        } else {
          const contextSize = Math.min(lines.length, CONTEXT);
          pushContext(curRange, lines.slice(0, contextSize));
          hunks.push({
            oldStart: oldRangeStart,
            oldLines: oldLine - oldRangeStart + contextSize,
            newStart: newRangeStart,
            newLines: newLine - newRangeStart + contextSize,
            lines: curRange,
          });
          oldRangeStart = 0;
          newRangeStart = 0;
          curRange = [];
        }
      }
      oldLine += lines.length;
      newLine += lines.length;
    }
  }
  return hunks;
}
