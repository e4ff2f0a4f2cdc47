/**
 * A step's `latency` as the service reports it, in whole milliseconds: the one place that reads
 * the `{milliseconds}` / `{seconds, milliseconds}` forms (PRODUCT.md, "Interface ambiguities").
 * With `seconds` present and `milliseconds` < 1000, the two are parts (s*1000 + ms); otherwise
 * `milliseconds` is the whole duration. Numbers may arrive as numeric strings. Anything else —
 * not an object, negative, non-numeric — is `undefined`: the latency is unknown, never 0.
 */
export function latencyMs(latency: unknown): number | undefined {
  if (typeof latency !== 'object' || latency === null) return undefined;
  const raw = latency as { seconds?: unknown; milliseconds?: unknown };
  const seconds = amount(raw.seconds);
  const millis = amount(raw.milliseconds);
  if (seconds !== undefined && millis !== undefined && millis < 1000) return seconds * 1000 + millis;
  if (millis !== undefined) return millis;
  // `{seconds}` alone is not among the forms seen, but it can only mean whole seconds.
  if (seconds !== undefined && raw.milliseconds === undefined) return seconds * 1000;
  return undefined;
}

/**
 * The p-th percentile (0 < p <= 100) by nearest rank: the smallest sample with at least p% of the
 * samples at or below it. It is always a latency that was observed, and on small samples it reads
 * naturally: with 3 repeats p50 is the middle one and p95/p99 the slowest. Non-finite samples are
 * ignored; no samples gives `undefined`.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  return percentileOfSorted(values.filter(Number.isFinite).sort((a, b) => a - b), p);
}

/**
 * `percentile` of samples already finite and sorted ascending: for several percentiles of one
 * list (a report's stats), which is then not filtered and sorted again for each.
 */
export function percentileOfSorted(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

function amount(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
