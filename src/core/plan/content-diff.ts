import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/**
 * The search is O((N+M)·D) for N and M lines and D lines removed or added: past this many steps
 * the diff is not worth its cost (contents that differ almost everywhere would take seconds).
 */
const MAX_STEPS = 10_000_000;
/** Unchanged lines shown around each change. */
const CONTEXT = 3;

/**
 * A unified diff of a Role's content, `---`/`+++` headers then hunks (context 3), made by the
 * `diff` package (Myers' search: the fewest lines removed and added there are). Both sides get a
 * final `\n` so a diff never ends in "No newline at end of file" noise, while a change in
 * trailing line breaks still shows as an added or removed empty line. A `\r` stays part of its
 * line, so a change of line endings shows. Contents too different to diff cheaply say so instead.
 */
export function contentDiff(before: string, after: string, oldLabel: string, newLabel: string): string {
  const lines = lineCount(before) + lineCount(after);
  const diff = createTwoFilesPatch(oldLabel, newLabel, `${before}\n`, `${after}\n`, undefined, undefined, {
    context: CONTEXT,
    maxEditLength: Math.max(1, Math.floor(MAX_STEPS / lines)),
    headerOptions: FILE_HEADERS_ONLY,
  });
  return diff ?? `--- ${oldLabel}\n+++ ${newLabel}\n@@ content changed too much to show a diff @@\n`;
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
