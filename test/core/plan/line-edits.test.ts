import { diffArrays } from 'diff';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lineEdits } from '../../../src/core/plan/diff/line-edits.js';

// lineEdits is the `diff` package's diffArrays step for step: for any two lists of lines, and any
// bound on the edits, the same runs (or the same refusal), in the same order.

// Few distinct lines, so that many alignments are equally short and the search's tie-breaking shows.
const line = fc.constantFrom('a', 'b', 'c', '', ' ', 'a\r', '#');
const lines = fc.array(line, { maxLength: 40 });

const reference = (a: string[], b: string[], max: number) =>
  diffArrays(a, b, { maxEditLength: max })?.map(({ count, added, removed, value }) => ({ count, added, removed, value }));

describe('lineEdits', () => {
  test('gives exactly the runs diffArrays gives, for any lists of lines', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        expect(lineEdits(a, b, 5000)).toEqual(reference(a, b, 5000));
      }),
      { numRuns: 5000 },
    );
  });

  test('an edit of a list (lines changed, added, removed) gives exactly what diffArrays gives', () => {
    const edited = lines.chain((a) =>
      fc.tuple(fc.constant(a), fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'add', 'change'), line), { maxLength: 6 })).map(([base, edits]) => {
        const b = [...base];
        for (const [at, kind, l] of edits) {
          const i = b.length === 0 ? 0 : at % b.length;
          if (kind === 'drop') b.splice(i, 1);
          else if (kind === 'add') b.splice(i, 0, l);
          else b[i] = l;
        }
        return [base, b] as const;
      }),
    );
    fc.assert(
      fc.property(edited, ([a, b]) => {
        expect(lineEdits(a, b, 5000)).toEqual(reference([...a], [...b], 5000));
      }),
      { numRuns: 3000 },
    );
  });

  test('gives up past the same number of edits as diffArrays', () => {
    fc.assert(
      fc.property(lines, lines, fc.integer({ min: 0, max: 12 }), (a, b, max) => {
        expect(lineEdits(a, b, max)).toEqual(reference(a, b, max));
      }),
      { numRuns: 3000 },
    );
    expect(lineEdits(['a', 'b'], ['c', 'd'], 3)).toBeUndefined();
    expect(lineEdits(['a', 'b'], ['c', 'd'], 4)).toEqual([
      { count: 2, added: false, removed: true, value: ['a', 'b'] },
      { count: 2, added: true, removed: false, value: ['c', 'd'] },
    ]);
  });
});
