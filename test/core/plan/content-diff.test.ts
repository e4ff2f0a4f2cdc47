import { applyPatch, parsePatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { contentDiff } from '../../../src/core/plan/index.js';

// contentDiff is the `diff` package's Myers search with a bound on its cost. The yardsticks: that
// package's patch reader applies the diffs, and a longest common subsequence of the lines, found
// by plain dynamic programming, says how few lines a diff can change.

/** The lines a diff removes and adds (`-x`, `+y`, not the `---`/`+++` header). */
function changedLines(diff: string): number {
  return diff.split('\n').filter((line, i) => i >= 2 && (line.startsWith('-') || line.startsWith('+'))).length;
}

/** How many lines a minimal diff removes and adds: both sides' lines less twice a longest common subsequence. */
function fewestChanged(before: string, after: string): number {
  const a = before.split('\n');
  const b = after.split('\n');
  let row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const next = [0];
    for (let j = 0; j < b.length; j++) next.push(line === b[j] ? row[j]! + 1 : Math.max(row[j + 1]!, next[j]!));
    row = next;
  }
  return a.length + b.length - 2 * row[b.length]!;
}

// Few distinct lines, so that many alignments are equally short and the search's choices show.
const LINES = ['a', 'b', 'c', '', ' ', 'a\r', '\r', 'x y', '# title', '-', '+', '@@', '\\', '--- x', '+++ y'];
const line = fc.constantFrom(...LINES);
const text = fc.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\r\n')), { maxLength: 40 }), fc.option(line)).map(([lines, last]) => lines.map(([l, br]) => l + br).join('') + (last ?? ''));
/** Either two unrelated contents, or one and an edit of it: lines dropped, inserted, replaced. */
const pair = fc.oneof(
  fc.tuple(text, text),
  fc.tuple(text, fc.array(fc.tuple(fc.nat(9), line), { maxLength: 60 })).map(([before, edits]): [string, string] => {
    const lines = before.split('\n');
    const edited = lines.flatMap((l, i) => {
      const [op, other] = edits[i % Math.max(edits.length, 1)] ?? [9, l];
      return op === 0 ? [] : op === 1 ? [l, other] : op === 2 ? [other] : [l];
    });
    return [before, edited.join('\n')];
  }),
);

describe('contentDiff', () => {
  test('is a unified diff a patch reader applies to the tenant content to give the file content', () => {
    fc.assert(
      fc.property(pair, ([before, after]) => {
        const diff = contentDiff(before, after, 'a (tenant)', 'roles/a.md');
        expect(diff.startsWith('--- a (tenant)\n+++ roles/a.md\n')).toBe(true);
        // Both sides end in a line break (see contentDiff); applyPatch checks every context line and count.
        expect(applyPatch(`${before}\n`, diff)).toBe(`${after}\n`);
        expect(parsePatch(diff)).toHaveLength(1);
      }),
      { numRuns: 3000 },
    );
  });

  test('removes and adds as few lines as any diff can, removed before added, with at most 3 lines of context around a change', () => {
    fc.assert(
      fc.property(pair, ([before, after]) => {
        const diff = contentDiff(before, after, 'old', 'new');
        expect(changedLines(diff)).toBe(fewestChanged(before, after));
        for (const hunk of parsePatch(diff)[0]!.hunks) {
          // Between two kept lines, the removed lines come first, then the added ones.
          expect(hunk.lines.map((l) => l[0]).join('')).not.toMatch(/\+-/);
          const kept = hunk.lines.map((l) => l.startsWith(' '));
          expect(kept.indexOf(false)).toBeLessThanOrEqual(3);
          expect(kept.reverse().indexOf(false)).toBeLessThanOrEqual(3);
          // Inside a hunk, no run of more than 6 kept lines: such a run splits it in two.
          expect(hunk.lines.map((l) => (l.startsWith(' ') ? 'k' : 'c')).join('')).not.toMatch(/ck{7,}c/);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['both empty', '', '', '--- old\n+++ new\n'],
    ['from empty', '', 'a\nb', '--- old\n+++ new\n@@ -1,1 +1,2 @@\n-\n+a\n+b\n'],
    ['to empty', 'a\nb', '', '--- old\n+++ new\n@@ -1,2 +1,1 @@\n-a\n-b\n+\n'],
    ['a final line break added', 'a', 'a\n', '--- old\n+++ new\n@@ -1,1 +1,2 @@\n a\n+\n'],
    ['CRLF to LF', 'a\r\nb\r\n', 'a\nb\n', '--- old\n+++ new\n@@ -1,3 +1,3 @@\n-a\r\n-b\r\n+a\n+b\n \n'],
    ['a lone CR', 'a\rb', 'a\nb', '--- old\n+++ new\n@@ -1,1 +1,2 @@\n-a\rb\n+a\n+b\n'],
    ['far apart changes make two hunks', 'x\n1\n2\n3\n4\n5\n6\n7\n8\ny', 'X\n1\n2\n3\n4\n5\n6\n7\n8\nY', '--- old\n+++ new\n@@ -1,4 +1,4 @@\n-x\n+X\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-y\n+Y\n'],
    ['close changes make one hunk', 'x\n1\n2\n3\n4\ny', 'X\n1\n2\n3\n4\nY', '--- old\n+++ new\n@@ -1,6 +1,6 @@\n-x\n+X\n 1\n 2\n 3\n 4\n-y\n+Y\n'],
    ['a repeated block', 'a\nb\na\nb', 'a\nb\na\nb\na\nb', '--- old\n+++ new\n@@ -2,3 +2,5 @@\n b\n a\n b\n+a\n+b\n'],
  ])('%s', (_, before, after, expected) => {
    expect(contentDiff(before, after, 'old', 'new')).toBe(expected);
  });

  test('contents too different to diff cheaply say so instead of a diff', () => {
    const before = Array.from({ length: 6000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 6000 }, (_, i) => `other ${i}`).join('\n');
    expect(contentDiff(before, after, 'old', 'new')).toBe('--- old\n+++ new\n@@ content changed too much to show a diff @@\n');
  });

  test('a long content with a few edits is diffed in full', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const edited = lines.map((l, i) => (i % 5000 === 2500 ? `${l} (edited)` : l));
    const diff = contentDiff(lines.join('\n'), edited.join('\n'), 'old', 'new');
    expect(diff.match(/^@@ /gm)).toHaveLength(4);
    expect(applyPatch(`${lines.join('\n')}\n`, diff)).toBe(`${edited.join('\n')}\n`);
  });
});
