import type { Budget, Parsed } from './types.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)?$/;
const HINT = 'use a number with ms, s, m or h, like 500ms, 1.5s or 2m';
/**
 * The longest duration anywhere (timeouts, quiet periods, budgets): a day. Node's timers hold at
 * most 2^31-1 ms (~24.8 days) and fire at once beyond it, so an unbounded value would end a wait
 * immediately instead of never.
 */
export const MAX_DURATION_MS = 24 * 3_600_000;

/**
 * `"1.5s"` → 1500, `"800ms"` → 800, `"2m"` → 120000, `"250"` or `250` → 250: a bare number is
 * milliseconds, the unit the service reports latencies in.
 */
export function parseDuration(text: string | number): Parsed<number> {
  if (typeof text === 'number') {
    return Number.isFinite(text) && text >= 0 ? withinMax(text, String(text)) : { ok: false, error: `invalid duration ${text}: ${HINT}` };
  }
  const m = DURATION.exec(text.trim());
  if (!m) return { ok: false, error: `invalid duration ${JSON.stringify(text)}: ${HINT}` };
  return withinMax(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!, JSON.stringify(text));
}

function withinMax(ms: number, shown: string): Parsed<number> {
  return ms <= MAX_DURATION_MS ? { ok: true, value: ms } : { ok: false, error: `duration ${shown} is more than 24h, the longest roleflow accepts` };
}

/** Why a baseline budget is skipped when `test` is given no baseline report. */
export const NO_BASELINE = 'no baseline report (test --baseline FILE)';

/**
 * `"< 4s"`, `"<4s"`, `"<= 800ms"`: a latency must stay under (or at most at) a duration.
 * `"< baseline + 20%"`, `"<= baseline"`: under the same statistic in a baseline report, plus a
 * margin; skipped (`NO_BASELINE`) until a baseline resolves it.
 */
export function parseBudget(text: string): Parsed<Budget> {
  const relative = /^(<=?)\s*baseline\s*(?:\+\s*(\d+(?:\.\d+)?)\s*%)?$/.exec(text.trim());
  if (relative) {
    const plus = relative[2] === undefined ? 0 : Number(relative[2]);
    const shown = `${relative[1]} baseline${relative[2] === undefined ? '' : ` + ${relative[2]}%`}`;
    return { ok: true, value: { op: relative[1] as Budget['op'], ms: 0, text: shown, baseline: { plus: plus / 100, skip: NO_BASELINE } } };
  }
  const m = /^(<=?)\s*(.*)$/s.exec(text.trim());
  if (!m) {
    return {
      ok: false,
      error: `invalid budget ${JSON.stringify(text)}: write a comparison and a duration, like "< 4s" or "<= 800ms"`,
    };
  }
  if (/^baseline\b/.test(m[2]!.trim())) {
    return { ok: false, error: `invalid budget ${JSON.stringify(text)}: a budget relative to the baseline is "< baseline" or "< baseline + 20%"` };
  }
  const duration = parseDuration(m[2]!);
  if (!duration.ok) {
    const why = DURATION.test(m[2]!.trim()) ? duration.error : `${HINT}, after < or <=`;
    return { ok: false, error: `invalid budget ${JSON.stringify(text)}: ${why}` };
  }
  return { ok: true, value: { op: m[1] as Budget['op'], ms: duration.value, text: `${m[1]} ${m[2]!.trim()}` } };
}

export function withinBudget(ms: number, budget: Budget): boolean {
  return budget.op === '<' ? ms < budget.ms : ms <= budget.ms;
}

/** Milliseconds for people: `850ms`, `1.5s`, `2m 5s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'unknown';
  if (ms < 1000) return `${round(ms)}ms`;
  if (ms < 60_000) return `${round(ms / 1000)}s`;
  const minutes = Math.floor(ms / 60_000);
  const rest = ms - minutes * 60_000;
  return rest === 0 ? `${minutes}m` : `${minutes}m ${formatMs(rest)}`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
