/**
 * The Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples: does one tend to hold
 * larger values than the other? It compares ranks, not means, so one slow outlier does not decide
 * it and latencies need not be normally distributed.
 *
 * The p-value is exact (the distribution of U over every arrangement of the ranks) when neither
 * sample has more than EXACT_MAX values and there are no ties; otherwise it is the normal
 * approximation with the tie correction of the variance and a continuity correction of 0.5 —
 * what SciPy's `mannwhitneyu(method="asymptotic")` computes.
 */
export type Alternative = 'two-sided' | 'greater' | 'less';

export interface MannWhitneyResult {
  /** U of the first sample: the pairs (x, y) with x > y, ties counting one half. */
  u: number;
  /** Probability, under "no difference", of a U at least this extreme in the `alternative`'s direction. */
  p: number;
  method: 'exact' | 'normal';
}

/** Above this many values on a side the exact distribution is not computed (the normal one is close by then). */
export const EXACT_MAX = 25;

/**
 * `alternative`: `greater` asks whether `x` tends to be larger than `y`; `less` smaller;
 * `two-sided` either. Non-finite values are ignored. Either sample empty: p is 1.
 */
export function mannWhitneyU(xs: readonly number[], ys: readonly number[], alternative: Alternative = 'two-sided'): MannWhitneyResult {
  const x = xs.filter(Number.isFinite);
  const y = ys.filter(Number.isFinite);
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) return { u: 0, p: 1, method: 'exact' };
  const { ranks, tieTerm } = rank([...x, ...y]);
  const r1 = ranks.slice(0, n1).reduce((s, r) => s + r, 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  if (tieTerm === 0 && n1 <= EXACT_MAX && n2 <= EXACT_MAX) return { u, p: exactP(u, n1, n2, alternative), method: 'exact' };
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { u, p: 1, method: 'normal' };
  const sd = Math.sqrt(variance);
  const upper = 1 - normalCdf((u - mean - 0.5) / sd); // P(U >= u)
  const lower = normalCdf((u - mean + 0.5) / sd); // P(U <= u)
  const p = alternative === 'greater' ? upper : alternative === 'less' ? lower : 2 * Math.min(upper, lower);
  return { u, p: clamp01(p), method: 'normal' };
}

/** Average ranks (1-based) and Σ(t³ − t) over groups of tied values. */
function rank(values: readonly number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  let tieTerm = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const average = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = average;
    const t = end - start + 1;
    tieTerm += t * t * t - t;
    start = end + 1;
  }
  return { ranks, tieTerm };
}

/** The exact p from the number of rank arrangements giving each U (no ties). */
function exactP(u: number, n1: number, n2: number, alternative: Alternative): number {
  const counts = uCounts(n1, n2);
  const total = counts.reduce((s, c) => s + c, 0);
  const atMost = (k: number) => counts.slice(0, Math.floor(k) + 1).reduce((s, c) => s + c, 0) / total;
  const upper = 1 - atMost(u - 1); // P(U >= u)
  const lower = atMost(u); // P(U <= u)
  const p = alternative === 'greater' ? upper : alternative === 'less' ? lower : 2 * Math.min(upper, lower);
  return clamp01(p);
}

/** counts[k]: arrangements of n1 + n2 distinct values where the first sample's U is k. */
function uCounts(n1: number, n2: number): number[] {
  // f(m, n) over U by the recurrence f(m, n, u) = f(m−1, n, u−n) + f(m, n−1, u).
  let previous: number[][] = Array.from({ length: n2 + 1 }, () => [1]); // m = 0: U is 0
  for (let m = 1; m <= n1; m++) {
    const current: number[][] = [[1]]; // n = 0: U is 0
    for (let n = 1; n <= n2; n++) {
      const size = m * n + 1;
      const row = new Array<number>(size).fill(0);
      const withLargestInX = previous[n]!; // largest value in x: it beats all n of y
      const withLargestInY = current[n - 1]!;
      for (let k = 0; k < withLargestInX.length; k++) row[k + n] = row[k + n]! + withLargestInX[k]!;
      for (let k = 0; k < withLargestInY.length; k++) row[k] = row[k]! + withLargestInY[k]!;
      current.push(row);
    }
    previous = current;
  }
  return previous[n2]!;
}

/** Φ(z), the standard normal CDF, from erfc (the Chebyshev fit of Numerical Recipes' erfcc, relative error < 1.2e-7). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}

function clamp01(p: number): number {
  return Math.min(1, Math.max(0, p));
}
