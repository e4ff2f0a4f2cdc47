import { structuredPatch } from 'diff';
import { describe, expect, test } from 'vitest';
import { contentDiff } from '../../../src/core/plan/index.js';
import { random } from '../roles/builders.js';

/** The diff as plans showed it when it was made with `structuredPatch`: the output must not move. */
function viaStructuredPatch(before: string, after: string, oldLabel: string, newLabel: string): string {
  const patch = structuredPatch(oldLabel, newLabel, `${before}\n`, `${after}\n`, undefined, undefined, { context: 3, maxEditLength: 5000 });
  const header = `--- ${oldLabel}\n+++ ${newLabel}\n`;
  if (!patch) return `${header}@@ content changed in more than 5000 lines: no diff shown @@\n`;
  return header + patch.hunks.map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`).join('');
}

// Few distinct lines, so that many alignments are equally short and the search's choices show.
const LINES = ['a', 'b', 'c', '', ' ', 'a\r', '\r', 'x y', '# title', '-', '+', '@@', '\\'];
const BREAKS = ['\n', '\n', '\n', '\r\n'];

describe('contentDiff', () => {
  test('gives exactly the diffs structuredPatch gave, for 4,000 generated pairs of contents', () => {
    const next = random(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const text = (lines: number): string => Array.from({ length: lines }, () => pick(LINES) + pick(BREAKS)).join('') + (next() < 0.5 ? pick(LINES) : '');
    for (let i = 0; i < 4000; i++) {
      const before = text(Math.floor(next() * 30));
      // Either unrelated, or an edit of `before`: lines changed, inserted, removed.
      const after =
        next() < 0.3
          ? text(Math.floor(next() * 30))
          : before
              .split('\n')
              .flatMap((line) => (next() < 0.15 ? [] : next() < 0.15 ? [line, pick(LINES)] : next() < 0.1 ? [pick(LINES)] : [line]))
              .join('\n');
      expect(contentDiff(before, after, 'a (tenant)', 'roles/a.md'), JSON.stringify([before, after])).toBe(
        viaStructuredPatch(before, after, 'a (tenant)', 'roles/a.md'),
      );
    }
  });

  test.each([
    ['both empty', '', ''],
    ['from empty', '', 'a\nb'],
    ['to empty', 'a\nb', ''],
    ['a final line break added', 'a', 'a\n'],
    ['CRLF to LF', 'a\r\nb\r\n', 'a\nb\n'],
    ['a lone CR', 'a\rb', 'a\nb'],
    ['far apart changes make two hunks', 'x\n1\n2\n3\n4\n5\n6\n7\n8\ny', 'X\n1\n2\n3\n4\n5\n6\n7\n8\nY'],
    ['close changes make one hunk', 'x\n1\n2\n3\n4\ny', 'X\n1\n2\n3\n4\nY'],
    ['a repeated block', 'a\nb\na\nb', 'a\nb\na\nb\na\nb'],
  ])('%s', (_, before, after) => {
    expect(contentDiff(before, after, 'old', 'new')).toBe(viaStructuredPatch(before, after, 'old', 'new'));
  });

  test('past 5,000 edited lines it says so instead of diffing', () => {
    const before = Array.from({ length: 6000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 6000 }, (_, i) => `other ${i}`).join('\n');
    expect(contentDiff(before, after, 'old', 'new')).toBe('--- old\n+++ new\n@@ content changed in more than 5000 lines: no diff shown @@\n');
  });
});
