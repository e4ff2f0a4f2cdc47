import type { Parsed } from '../core/flows/index.js';
import { compileSchema, pointerToPath } from '../core/schema.js';
import { withShownMessages } from './shown.js';
import type { RunReport } from './model.js';

export { renderJson } from './json-text.js';
export { mergeReports, mergeWarnings } from './merge/merge.js';

/** A JSON report read back (for `report merge`), checked against its schema; its messages escaped. */
export function parseReport(text: string, file: string, schema: object): Parsed<RunReport> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${file}: not JSON: ${(error as Error).message}` };
  }
  const validate = compileSchema(schema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${pointerToPath(first.instancePath)}: ` : '';
    return { ok: false, error: `${file}: not a roleflow JSON report: ${where}${first?.message ?? 'invalid'}` };
  }
  const report = value as RunReport;
  return { ok: true, value: { ...report, results: report.results.map(withShownMessages) } };
}
