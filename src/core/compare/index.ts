/**
 * Comparing two runs (`report compare`) — pure: the Mann–Whitney U test and the comparison of
 * two reports' raw samples. A regression is a p50 or p95 increase beyond the threshold that the
 * test finds significant (p < ALPHA); with fewer than MIN_SAMPLES on a side it is "not enough
 * samples", never a regression.
 */
export { mannWhitneyU, normalCdf, EXACT_MAX, type Alternative, type MannWhitneyResult } from './mann-whitney.js';
export * from './compare.js';
export { resolveBaselineBudgets, type Baseline } from './baseline.js';
