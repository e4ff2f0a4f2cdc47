import type { ValidateFunction } from 'ajv';
import type { Parsed } from '../core/flows/index.js';
import { compileSchema, pointerToPath } from '../core/text/schema.js';
import { withShownMessages } from './shown.js';
import type { RunReport, TestResult } from './model.js';

export { renderJson } from './json-text.js';
export { mergeReports, mergeWarnings } from './combine/merge.js';

/** A JSON report read back (for `report merge`), checked against its schema; its messages escaped. */
export function parseReport(text: string, file: string, schema: object): Parsed<RunReport> {
  const value = parseJson(text, file);
  if (!value.ok) return value;
  const checked = checkedBy(compileSchema(schema), value.value, file, '');
  if (!checked.ok) return checked;
  const report = checked.value as RunReport;
  return { ok: true, value: { ...report, results: report.results.map(withShownMessages) } };
}

/**
 * One element of a report's `results`, read on its own (`report merge` reads a report result by
 * result: see `ReportScanner`), checked against the schema's test result; its messages escaped.
 */
export function parseReportResult(text: string, file: string, index: number, schema: object): Parsed<TestResult> {
  const value = parseJson(text, `${file} (results[${index}])`);
  if (!value.ok) return value;
  const checked = checkedBy(resultValidator(schema), value.value, file, `/results/${index}`);
  return checked.ok ? { ok: true, value: withShownMessages(checked.value as TestResult) } : checked;
}

const resultSchemas = new WeakMap<object, object>();

/** The validator of one test result: the report schema's `testResult`, with its definitions. */
function resultValidator(schema: object): ValidateFunction {
  let sub = resultSchemas.get(schema);
  if (!sub) {
    sub = { $ref: '#/definitions/testResult', definitions: (schema as { definitions: object }).definitions };
    resultSchemas.set(schema, sub);
  }
  return compileSchema(sub);
}

function parseJson(text: string, where: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `${where}: not JSON: ${(error as Error).message}` };
  }
}

function checkedBy(validate: ValidateFunction, value: unknown, file: string, at: string): Parsed<unknown> {
  if (validate(value)) return { ok: true, value };
  const first = validate.errors?.[0];
  const pointer = `${at}${first?.instancePath ?? ''}`;
  const where = pointer ? `${pointerToPath(pointer)}: ` : '';
  return { ok: false, error: `${file}: not a roleflow JSON report: ${where}${first?.message ?? 'invalid'}` };
}
