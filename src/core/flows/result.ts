import type { AssertionResult, Located } from './types.js';

/** A checked assertion; a failure's message always shows what was expected and what came. */
export function verdict(
  kind: AssertionResult['kind'],
  label: string,
  at: Located,
  check: { pass: boolean; expected: string; actual: string; why?: string },
): AssertionResult {
  const { pass, expected, actual, why } = check;
  const message = pass ? `${label}: ${actual}` : `${label}: expected ${expected}, got ${actual}${why ? `: ${why}` : ''}`;
  return { kind, label, status: pass ? 'pass' : 'fail', expected, actual, message, line: at.line, col: at.col };
}

/** An assertion that could not be checked, with the reason: never counted as passed. */
export function skipped(kind: AssertionResult['kind'], label: string, reason: string, at: Located): AssertionResult {
  return { kind, label, status: 'skip', message: `${label}: skipped: ${reason}`, line: at.line, col: at.col };
}
