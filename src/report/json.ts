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
  const finite = finiteIn(value.value, file, '');
  if (!finite.ok) return finite;
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
  const finite = finiteIn(value.value, file, `results[${index}]`);
  if (!finite.ok) return finite;
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

/**
 * JSON has no Infinity, but 1e999 parses as one: such a latency cannot be judged, and the report
 * is refused naming the number's place (`results[0].wall_ms`); `at` is where `value` is in the report.
 */
function finiteIn(value: unknown, file: string, at: string): Parsed<unknown> {
  const infinite = nonFiniteAt(value, at);
  return infinite === undefined ? { ok: true, value } : { ok: false, error: `${file}: not a roleflow JSON report: ${infinite}: a number too large to judge (not finite)` };
}

/** The path of the first number in `value` that is not finite (`results[0].wall_ms`), if any; iterative. */
function nonFiniteAt(value: unknown, at: string): string | undefined {
  const todo: { v: unknown; path: string }[] = [{ v: value, path: at }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const { v, path } = next;
    if (typeof v === 'number' && !Number.isFinite(v)) return path || '(the whole report)';
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) todo.push({ v: v[i], path: `${path}[${i}]` });
    else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) todo.push({ v: (v as Record<string, unknown>)[keys[i]!], path: path === '' ? keys[i]! : `${path}.${keys[i]!}` });
    }
  }
  return undefined;
}
