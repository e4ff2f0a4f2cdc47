/**
 * Similarity of two texts without a model, each a number from 0 (nothing alike) to 1 (the same),
 * for `similar:` assertions and tolerant snapshots. Words are runs of letters and digits, compared
 * without case; `levenshtein` compares characters as written.
 *
 * - `rouge-l`: the F1 of the longest common subsequence of the words (ROUGE-L's F-measure, β = 1).
 * - `token-f1`: the F1 of the words shared as multisets (SQuAD's token F1), order ignored.
 * - `levenshtein`: 1 − edit distance ÷ the longer text's length.
 *
 * Each is symmetric; two empty texts are the same (1). The quadratic ones (rouge-l, levenshtein)
 * look at the first `MAX_UNITS` words or characters of each text, so a huge output cannot stall a run.
 */
export const METRICS = ['rouge-l', 'token-f1', 'levenshtein'] as const;
export type Metric = (typeof METRICS)[number];

export const MAX_UNITS = 5_000;

export function similarity(metric: Metric, a: string, b: string): number {
  if (metric === 'levenshtein') return levenshteinSimilarity(a, b);
  const x = words(a);
  const y = words(b);
  return metric === 'rouge-l' ? rougeL(x, y) : tokenF1(x, y);
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function rougeL(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const lcs = lcsLength(a.slice(0, MAX_UNITS), b.slice(0, MAX_UNITS));
  return f1(lcs / Math.min(a.length, MAX_UNITS), lcs / Math.min(b.length, MAX_UNITS));
}

export function tokenF1(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(w, n - 1);
    }
  }
  return f1(shared / a.length, shared / b.length);
}

export function levenshteinSimilarity(a: string, b: string): number {
  const x = [...a].slice(0, MAX_UNITS);
  const y = [...b].slice(0, MAX_UNITS);
  const longer = Math.max(x.length, y.length);
  if (longer === 0) return 1;
  return 1 - editDistance(x, y) / longer;
}

function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** One row at a time: memory linear in the shorter side. */
function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let prev = new Array<number>(short.length + 1).fill(0);
  let row = new Array<number>(short.length + 1).fill(0);
  for (const item of long) {
    for (let j = 1; j <= short.length; j++) row[j] = item === short[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    [prev, row] = [row, prev];
  }
  return prev[short.length]!;
}

function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    [prev, row] = [row, prev];
  }
  return prev[b.length]!;
}
