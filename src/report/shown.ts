import type { AssertionResult } from '../core/flows/index.js';
import { escapeControls } from '../core/text/safe-text.js';
import type { TestResult } from './model.js';

/**
 * `result` with its messages escaped as `buildTestResult` writes them: for a report read back
 * from a file (`report merge`), which a hand or another tool may have written. A report roleflow
 * wrote is unchanged (`escapeControls` is idempotent).
 */
export function withShownMessages(result: TestResult): TestResult {
  return {
    ...result,
    message: escapeControls(result.message),
    across_repeats: result.across_repeats.map(shownAssertion),
    repeats: result.repeats.map((r) => ({
      ...r,
      ...(r.error !== undefined && { error: escapeControls(r.error) }),
      assertions: r.assertions.map(shownAssertion),
    })),
  };
}

/**
 * An assertion's texts as reports show them: control characters escaped. `a` itself when none
 * holds one (the usual case: a copy made with a spread costs V8 a runtime call per member).
 */
export function shownAssertion(a: AssertionResult): AssertionResult {
  const label = escapeControls(a.label);
  const message = escapeControls(a.message);
  const expected = a.expected === undefined ? undefined : escapeControls(a.expected);
  const actual = a.actual === undefined ? undefined : escapeControls(a.actual);
  // A diff is lines: each escaped, the line breaks between them kept.
  const diff = a.diff === undefined ? undefined : a.diff.split('\n').map(escapeControls).join('\n');
  if (label === a.label && message === a.message && expected === a.expected && actual === a.actual && diff === a.diff) return a;
  return {
    ...a,
    label,
    message,
    ...(expected !== undefined && { expected }),
    ...(actual !== undefined && { actual }),
    ...(diff !== undefined && { diff }),
  };
}
