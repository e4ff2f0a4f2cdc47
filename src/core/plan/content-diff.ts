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
 * The hunks are those of the `diff` package's `structuredPatch` (context 3), built here from
 * `diffArrays` over the same line tokens `diffLines` makes: the same Myers search over the same
 * tokens gives the same changes, and it skips `structuredPatch`'s joining of each run of lines
 * into one string and splitting it again, which was most of the cost of a plan's many diffs.
 */
export function contentDiff(before: string, after: string, oldLabel: string, newLabel: string): string {
  const changes = diffArrays(lineTokens(`${before}\n`), lineTokens(`${after}\n`), { maxEditLength: MAX_EDIT_LENGTH });
  const header = `--- ${oldLabel}\n+++ ${newLabel}\n`;
  if (!changes) return `${header}@@ content changed in more than ${MAX_EDIT_LENGTH} lines: no diff shown @@\n`;
  // Every line keeps its `\n` (both sides end in one), so a hunk's lines joined with nothing are
  // its lines without `\n` joined with `\n`, plus the final one: structuredPatch's text exactly.
  const hunks = hunksOf(changes).map(
    (h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('')}`,
  );
  return header + hunks.join('');
}

/**
 * Lines as `diffLines` tokenizes them: each with its line break (`\n` or `\r\n`); a last line
 * without one is a token too. (Its split on `/(\n|\r\n)/` cuts exactly after every `\n`.)
 */
function lineTokens(text: string): string[] {
  const tokens: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    tokens.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) tokens.push(text.slice(start));
  return tokens;
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
 * same; the lines keep their line breaks (see `contentDiff`).
 */
function hunksOf(changes: ChangeObject<string[]>[]): Hunk[] {
  const diff = [...changes, { value: [] as string[], count: 0, added: false, removed: false }];
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
