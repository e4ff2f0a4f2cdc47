import { resolve } from 'node:path';
import { compareRuns, type RunComparison } from '../core/compare/index.js';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import type { TextFileKind } from '../core/text/text-file.js';
import { loadSchema } from '../files/package-root.js';
import { readTextFile } from '../files/source-files.js';
import { parseReport } from '../report/json.js';
import type { RunReport } from '../report/model.js';

/** Far above the report of any real suite; read like every other input file, within a limit. */
const JSON_REPORT: TextFileKind = { maxBytes: 256 * 1024 * 1024, noun: 'a JSON report', holds: 'JSON text' };

/**
 * JSON reports read from files named from `cwd` and checked against `schemas/report.schema.json`
 * (for `report merge`, `report compare`, `test --baseline`). An unreadable or invalid one is an
 * error naming the file.
 */
export async function readJsonReports(cwd: string, files: readonly string[]): Promise<{ file: string; report: RunReport }[]> {
  const schema = loadSchema('report');
  const inputs = [];
  for (const file of files) {
    const text = await readTextFile({ abs: resolve(cwd, file), file }, JSON_REPORT);
    if (!text.ok) throw new InvalidFilesError(text.issues);
    const parsed = parseReport(text.value, file, schema);
    if (!parsed.ok) throw new RoleflowError(parsed.error);
    inputs.push({ file, report: parsed.value });
  }
  return inputs;
}

/** Two JSON reports compared (`report compare`): see `compareRuns`. */
export async function compareReportFiles(cwd: string, baseFile: string, headFile: string, threshold: number, options: { allowSkipped?: boolean } = {}): Promise<RunComparison> {
  const [base, head] = await readJsonReports(cwd, [baseFile, headFile]);
  return compareRuns(base!.report, head!.report, threshold, options);
}
