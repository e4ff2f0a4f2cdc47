import { jsonText } from '../core/text/safe-text.js';
import type { RunReport } from './model.js';

/** Each report's JSON, made once: the run's report is checked for secrets on this text, then written as it. */
const rendered = new WeakMap<RunReport, string>();

/**
 * The JSON report (`schemas/report.schema.json`). Its data is exact; its messages hold control
 * characters escaped as text (`buildTestResult`); and it holds no raw control character at all.
 */
export function renderJson(report: RunReport): string {
  let text = rendered.get(report);
  if (text === undefined) {
    text = `${jsonText(report, 2)}\n`;
    rendered.set(report, text);
  }
  return text;
}
