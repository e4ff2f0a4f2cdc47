import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { METRICS, similarity, words } from '../../../src/core/flows/checks/similarity.js';

const text = fc.oneof(fc.string({ maxLength: 60 }), fc.array(fc.constantFrom('the', 'refund', 'order', 'Ada', 'sorry', '42', 'é'), { maxLength: 12 }).map((w) => w.join(' ')));

describe.each(METRICS)('%s', (metric) => {
  test('identity is 1', () => fc.assert(fc.property(text, (a) => similarity(metric, a, a) === 1)));
  test('symmetric', () => fc.assert(fc.property(text, text, (a, b) => Math.abs(similarity(metric, a, b) - similarity(metric, b, a)) < 1e-12)));
  test('between 0 and 1', () =>
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = similarity(metric, a, b);
        return s >= 0 && s <= 1;
      }),
    ));
  test('nothing in common is 0', () => expect(similarity(metric, 'abcde', 'xyzfg')).toBe(0));
});

describe('known values', () => {
  test('rouge-l: the longest common subsequence of words, without case', () => {
    // LCS "the cat the mat" (4) of 6 and 5 words: P 4/5, R 4/6.
    expect(similarity('rouge-l', 'The cat sat on the mat', 'the cat lay the mat')).toBeCloseTo((2 * (4 / 6) * (4 / 5)) / (4 / 6 + 4 / 5), 12);
  });
  test('token-f1 ignores order; rouge-l does not', () => {
    expect(similarity('token-f1', 'a b c', 'c b a')).toBe(1);
    expect(similarity('rouge-l', 'a b c', 'c b a')).toBeCloseTo(1 / 3, 12);
  });
  test('levenshtein: edits over the longer length', () => {
    expect(similarity('levenshtein', 'kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12);
    expect(similarity('levenshtein', '', 'abc')).toBe(0);
  });
  test('words are letters and digits of any script', () => {
    expect(words('Héllo, wörld! 42x')).toEqual(['héllo', 'wörld', '42x']);
  });
});
