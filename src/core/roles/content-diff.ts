import { structuredPatch } from 'diff';

/** Beyond this many edited lines the diff is not worth its cost (Myers is O(N·D)). */
const MAX_EDIT_LENGTH = 5000;

/**
 * A unified diff of a Role's content, `---`/`+++` headers then hunks. Both sides get a final
 * `\n` so a diff never ends in "No newline at end of file" noise, while a change in trailing
 * line breaks still shows as an added or removed empty line.
 */
export function contentDiff(before: string, after: string, oldLabel: string, newLabel: string): string {
  const patch = structuredPatch(oldLabel, newLabel, `${before}\n`, `${after}\n`, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  const header = `--- ${oldLabel}\n+++ ${newLabel}\n`;
  if (!patch) return `${header}@@ content changed in more than ${MAX_EDIT_LENGTH} lines: no diff shown @@\n`;
  const hunks = patch.hunks.map(
    (h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`,
  );
  return header + hunks.join('');
}
