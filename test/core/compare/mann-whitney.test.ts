import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mannWhitneyU, normalCdf } from '../../../src/core/compare/index.js';

// Reference values from SciPy 1.17 `scipy.stats.mannwhitneyu` (method noted per case).
describe('mannWhitneyU', () => {
  it('is exact for small samples without ties (SciPy method="exact")', () => {
    const r = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(r).toMatchObject({ u: 0, method: 'exact' });
    expect(r.p).toBeCloseTo(0.007936507936507936, 12);
    const a = [12.1, 15.3, 9.8, 11.0, 14.2, 13.7, 10.5];
    const b = [16.0, 18.2, 13.9, 17.5, 15.8, 19.1];
    expect(mannWhitneyU(a, b).u).toBe(2);
    expect(mannWhitneyU(a, b).p).toBeCloseTo(0.004662004662004662, 12);
    expect(mannWhitneyU(a, b, 'less').p).toBeCloseTo(0.002331002331002331, 12);
    expect(mannWhitneyU(b, a, 'greater').p).toBeCloseTo(0.002331002331002331, 12);
  });

  it('uses the normal approximation with tie and continuity corrections when values tie (SciPy method="asymptotic")', () => {
    const x = [1, 2, 2, 3, 3, 3, 7];
    const y = [3, 4, 4, 5, 5, 6, 8, 9];
    const r = mannWhitneyU(x, y);
    expect(r).toMatchObject({ u: 7.5, method: 'normal' });
    expect(r.p).toBeCloseTo(0.01918623791703808, 6);
    expect(mannWhitneyU(x, y, 'less').p).toBeCloseTo(0.00959311895851904, 6);
    expect(mannWhitneyU(x, y, 'greater').p).toBeCloseTo(0.9930335202075944, 6);
  });

  it('uses the normal approximation for large samples', () => {
    const a = [103.5, 108.2, 103.3, 87.0, 109.1, 104.5, 94.6, 105.8, 103.6, 102.9, 100.3, 105.5, 92.6, 98.4, 95.2, 106.0, 100.4, 97.1, 92.2, 97.4, 100.1, 97.2, 112.9, 110.1, 72.9, 81.1, 98.3, 95.8, 102.1, 102.2];
    const b = [129.2, 96.9, 104.2, 128.4, 114.5, 114.6, 102.9, 91.5, 109.7, 109.1, 95.7, 101.2, 107.3, 98.6, 107.0, 109.0, 108.4, 102.9, 113.9, 116.9, 111.2, 99.8, 115.3, 103.0, 116.8, 97.3, 117.1, 107.8, 95.5, 104.9];
    const r = mannWhitneyU(a, b);
    expect(r).toMatchObject({ u: 235.5, method: 'normal' });
    expect(r.p).toBeCloseTo(0.0015557037124463945, 6);
  });

  it('gives p = 1 for an empty sample and is symmetric in its two-sided form', () => {
    expect(mannWhitneyU([], [1, 2]).p).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 30 }), (x, y) => {
        const a = mannWhitneyU(x, y);
        const b = mannWhitneyU(y, x);
        expect(a.p).toBeGreaterThanOrEqual(0);
        expect(a.p).toBeLessThanOrEqual(1);
        expect(a.u + b.u).toBeCloseTo(x.length * y.length, 9);
        expect(a.p).toBeCloseTo(b.p, 6);
      }),
    );
  });

  it('normalCdf matches known quantiles', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.5758293035489)).toBeCloseTo(0.005, 6);
  });
});
