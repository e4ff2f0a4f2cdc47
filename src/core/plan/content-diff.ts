import diffSequencesModule from '@jest/diff-sequences';

// The package's types describe its CommonJS build, where the search is `exports.default`; imported
// (as Node, esbuild and vitest all do it here), the default export is the search itself.
const diffSequences = diffSequencesModule as unknown as typeof diffSequencesModule.default;

/**
 * Beyond this many line comparisons the diff is not worth its cost: the search is O((N+M)·D) for
 * N and M lines and D edits, so contents that differ almost everywhere would take seconds.
 */
const MAX_COMPARISONS = 10_000_000;
/** Unchanged lines shown around each change. */
const CONTEXT = 3;

/**
 * A unified diff of a Role's content, `---`/`+++` headers then hunks (context 3). Both sides get a
 * final `\n` so a diff never ends in "No newline at end of file" noise, while a change in
 * trailing line breaks still shows as an added or removed empty line.
 *
 * The lines are the pieces of `text.split('\n')` (a `\r` stays part of its line, so a change of
 * line endings shows). Which lines are kept is a longest common subsequence of the two, found by
 * `@jest/diff-sequences` (Myers' linear-space search): the fewest lines removed and added there
 * are. Between two kept runs, removed lines come before added ones.
 */
export function contentDiff(before: string, after: string, oldLabel: string, newLabel: string): string {
  const header = `--- ${oldLabel}\n+++ ${newLabel}\n`;
  const runs = diffRuns(before.split('\n'), after.split('\n'));
  if (!runs) return `${header}@@ content changed too much to show a diff @@\n`;
  // One join into one flat string: a plan holds thousands of these until it is written.
  const parts = [header];
  for (const h of hunksOf(runs)) parts.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`, h.lines.join('\n'), '\n');
  return parts.join('');
}

/** A run of lines kept, removed or added. */
interface Run {
  kind: ' ' | '-' | '+';
  lines: string[];
}

/** The two line lists as runs, in order; undefined past `MAX_COMPARISONS`. */
function diffRuns(a: string[], b: string[]): Run[] | undefined {
  const runs: Run[] = [];
  let ai = 0;
  let bi = 0;
  const changed = (aTo: number, bTo: number): void => {
    if (ai < aTo) runs.push({ kind: '-', lines: a.slice(ai, aTo) });
    if (bi < bTo) runs.push({ kind: '+', lines: b.slice(bi, bTo) });
  };
  let comparisons = 0;
  try {
    diffSequences(
      a.length,
      b.length,
      (i, j) => {
        if (++comparisons > MAX_COMPARISONS) throw TOO_MANY;
        return a[i] === b[j];
      },
      (n, aCommon, bCommon) => {
        const last = runs.at(-1);
        // Two common runs can meet (the search splits the sequences): they are one run of kept lines.
        if (last?.kind === ' ' && ai === aCommon && bi === bCommon) last.lines.push(...a.slice(aCommon, aCommon + n));
        else {
          changed(aCommon, bCommon);
          runs.push({ kind: ' ', lines: a.slice(aCommon, aCommon + n) });
        }
        ai = aCommon + n;
        bi = bCommon + n;
      },
    );
  } catch (err) {
    if (err === TOO_MANY) return undefined;
    throw err;
  }
  changed(a.length, b.length);
  return runs;
}

const TOO_MANY = new Error('too many comparisons');

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/**
 * The hunks of a unified diff with `CONTEXT` lines of context: a change starts a hunk with the
 * context before it; kept runs of up to twice the context between changes stay inside the hunk;
 * a longer one (or the last) closes it after `CONTEXT` lines. Line numbers count from 1.
 */
function hunksOf(runs: readonly Run[]): Hunk[] {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let oldLine = 1;
  let newLine = 1;
  const lastChange = runs.findLastIndex((r) => r.kind !== ' ');
  for (let i = 0; i < runs.length; i++) {
    const { kind, lines } = runs[i]!;
    if (kind !== ' ') {
      if (!hunk) {
        const before = i > 0 ? runs[i - 1]!.lines.slice(-CONTEXT) : [];
        hunk = { oldStart: oldLine - before.length, oldLines: 0, newStart: newLine - before.length, newLines: 0, lines: before.map((l) => ` ${l}`) };
      }
      for (const line of lines) hunk.lines.push(kind + line);
      if (kind === '+') newLine += lines.length;
      else oldLine += lines.length;
      continue;
    }
    if (hunk) {
      const last = i > lastChange;
      const shown = lines.length <= CONTEXT * 2 && !last ? lines : lines.slice(0, CONTEXT);
      for (const line of shown) hunk.lines.push(` ${line}`);
      if (shown.length < lines.length || last) {
        hunk.oldLines = oldLine + shown.length - hunk.oldStart;
        hunk.newLines = newLine + shown.length - hunk.newStart;
        hunks.push(hunk);
        hunk = undefined;
      }
    }
    oldLine += lines.length;
    newLine += lines.length;
  }
  if (hunk) {
    hunk.oldLines = oldLine - hunk.oldStart;
    hunk.newLines = newLine - hunk.newStart;
    hunks.push(hunk);
  }
  return hunks;
}
