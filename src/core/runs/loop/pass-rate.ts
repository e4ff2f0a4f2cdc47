import type { Parsed } from '../../flows/types.js';

/**
 * A suite-wide pass rate, in percent: `95%`, `99.5%` (`--min-pass-rate`, `flows.min_pass_rate`;
 * the config may write the number alone). 0 to 100.
 */
export function parsePassRate(value: string | number, where: string): Parsed<number> {
  const text = String(value).trim();
  const m = /^(\d{1,3}(?:\.\d+)?)\s*%?$/.exec(text);
  const rate = m ? Number(m[1]) : NaN;
  if (!(rate >= 0 && rate <= 100)) return { ok: false, error: `invalid ${where} ${JSON.stringify(String(value))}: write a percentage from 0% to 100%, like 95%` };
  // 0.95 or 1 without "%" reads as a fraction (95%, 100%), but would gate at under 1%: refused, not guessed.
  if (rate > 0 && rate <= 1 && !text.includes('%')) {
    return { ok: false, error: `invalid ${where} ${JSON.stringify(String(value))}: a fraction or a percentage? write it with %, like 95% (or ${text}% if that is the rate meant)` };
  }
  return { ok: true, value: rate };
}

/** What the pass rate reads of a run: its counts (`countResults`). */
export interface RateCounts {
  passed: number;
  /** Errors included. */
  failed: number;
}

/** Where the least pass rate came from: the flag (of `test` or `report merge`) or the config. */
export type PassRateSource = '--min-pass-rate' | 'flows.min_pass_rate';

/** The suite-wide gate as a report records it. */
export interface PassRateGate {
  /** The least pass rate accepted, in percent. */
  min_pass_rate: number;
  /** Where `min_pass_rate` came from (absent from reports written before it was recorded). */
  set_by?: PassRateSource;
  /** Passed tests × transports of those that passed or failed, in percent (two decimals); null when none did. */
  pass_rate: number | null;
  /** The run's verdict: the rate is at least the least accepted. */
  passed: boolean;
}

/**
 * The suite judged as a whole: passed ÷ (passed + failed), skipped and not-run results left
 * out. A run in which nothing passed or failed has no rate and does not pass the gate; nor does
 * one `--bail` stopped (`bailed`): the tests it never ran are not judged, so the suite was not.
 */
export function judgePassRate(counts: RateCounts, min: number, bailed = false, setBy?: PassRateSource): PassRateGate {
  const judged = counts.passed + counts.failed;
  const rate = judged === 0 ? null : (counts.passed / judged) * 100;
  return { min_pass_rate: min, ...(setBy !== undefined && { set_by: setBy }), pass_rate: rate === null ? null : Math.floor(rate * 100) / 100, passed: !bailed && rate !== null && rate >= min };
}

/** `96.5% passed (--min-pass-rate 95%: met)`, or `flows.min_pass_rate 95%`: the summary line names where the rate came from. */
export function passRateText(gate: PassRateGate): string {
  const rate = gate.pass_rate === null ? 'no test passed or failed' : `${gate.pass_rate}% passed`;
  // Not met at a rate that reaches the least: only a run --bail stopped is judged so.
  const stopped = !gate.passed && gate.pass_rate !== null && gate.pass_rate >= gate.min_pass_rate;
  return `${rate} (${gate.set_by ?? 'min pass rate'} ${gate.min_pass_rate}%: ${gate.passed ? 'met' : stopped ? 'not met, the run stopped early: --bail' : 'not met'})`;
}
