import { parseThreshold } from '../core/compare/index.js';
import { RoleflowError } from '../core/errors.js';
import { environmentSecrets } from '../core/text/redact.js';
import { safeText } from '../core/text/safe-text.js';
import { writeReportFile } from '../files/report-file.js';
import { resolve } from 'node:path';
import { COMPARE_FORMATS, renderComparison } from '../report/compare.js';
import { missingShardsText } from '../report/digest.js';
import { mergeReports, mergeWarnings } from '../report/json.js';
import { noTestRanError, noTestRanReason } from '../report/no-tests.js';
import { createReporters, parseReporters } from '../report/reporters.js';
import type { ReportSinks } from '../report/reporter.js';
import { redactReport } from '../report/run-report.js';
import { ExitCode, type CommonOptions, type Ports } from './ports.js';
import { compareReportFiles, readJsonReports } from './read-reports.js';

export interface ReportMergeOptions extends CommonOptions {
  /** The JSON reports of the shards. */
  reports: readonly string[];
  /** `--out`: the merged JSON report (default roleflow-report.json). */
  out?: string | undefined;
  /** `--reporter NAME[=FILE]`: the merged report rendered again. */
  reporters: readonly string[];
  allowPartial: boolean;
  passWithNoTests: boolean;
}

/**
 * `roleflow report merge`: the JSON reports of a sharded run, checked to be its shards, merged
 * into one report and written with every reporter. Exit 3 when a test failed, 1 when none ran.
 */
export async function reportMerge(options: ReportMergeOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  // The reports were redacted when written; credentials in the environment are hidden here too.
  output.addSecrets(environmentSecrets(ports.env));
  const reporters = parseReporters(options.reporters, false);
  if (!reporters.ok) throw new RoleflowError(reporters.error);
  const inputs = await readJsonReports(ports.cwd, options.reports);
  const merged = mergeReports(inputs, { allowPartial: options.allowPartial });
  if (!merged.ok) throw new RoleflowError(merged.error);
  for (const warning of mergeWarnings(inputs)) output.err(warning);
  const report = redactReport(merged.value, output.redactor);
  const specs = [{ name: 'json' as const, file: options.out ?? 'roleflow-report.json' }, ...reporters.value];
  const sinks = reportSinks(ports);
  for (const reporter of createReporters(specs, sinks, { style: { color: output.color('stdout') }, live: false })) await reporter.onRunEnd(report);
  const { written } = sinks;
  const partial = report.missing_shards?.length ? `; ${missingShardsText(report.missing_shards)}` : '';
  output.err(`merged ${inputs.length} ${inputs.length === 1 ? 'report' : 'reports'} (${report.summary.tests} results)${partial}; wrote ${written.map(safeText).join(', ')}`);
  if (report.summary.failed > 0) return ExitCode.TestsFailed;
  const none = noTestRanReason(report);
  if (none === undefined) return ExitCode.Ok;
  output.err(options.passWithNoTests ? `${none} (--pass-with-no-tests)` : `error: ${noTestRanError(none)}`);
  return options.passWithNoTests ? ExitCode.Ok : ExitCode.Error;
}

export interface ReportCompareOptions extends CommonOptions {
  base: string;
  head: string;
  format: string;
  /** `--threshold`: the p50/p95 increase that may be a regression (`20%`). */
  threshold: string;
  failOnRegression: boolean;
  /** `--allow-skipped`: a test HEAD did not run, or skipped after passing in BASE, is no regression. */
  allowSkipped?: boolean | undefined;
}

/** `roleflow report compare BASE HEAD`: latency changes and new failures; exit 3 with `--fail-on-regression` when there are some. */
export async function reportCompare(options: ReportCompareOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  output.addSecrets(environmentSecrets(ports.env));
  const format = COMPARE_FORMATS.find((f) => f === options.format);
  if (!format) throw new RoleflowError(`unknown --format ${options.format}: use ${COMPARE_FORMATS.join(', ')}`, 'usage');
  const threshold = parseThreshold(options.threshold);
  if (!threshold.ok) throw new RoleflowError(threshold.error, 'usage');
  const comparison = await compareReportFiles(ports.cwd, options.base, options.head, threshold.value, { allowSkipped: options.allowSkipped === true });
  const files = { base: options.base, head: options.head };
  if (format === 'json') output.data(comparison, (c) => renderComparison(c, files, 'json'));
  else output.out(renderComparison(comparison, files, format));
  return options.failOnRegression && comparison.failing ? ExitCode.TestsFailed : ExitCode.Ok;
}

/**
 * Where reporters write: the command's output, and report files named from `cwd` (human text
 * masked once more; JSON, JUnit and workflow commands are not, so a secret that is a common word
 * cannot break their syntax). `written`: the files written, in order.
 */
export function reportSinks(ports: Ports): ReportSinks & { written: string[] } {
  const { output } = ports;
  const written: string[] = [];
  return {
    cwd: ports.cwd,
    env: ports.env,
    out: (text) => output.out(text),
    data: (report, render) => output.data(report, render),
    async file(name, text, kind, append) {
      await writeReportFile(resolve(ports.cwd, name), name, kind === 'human' ? output.redactor.text(text) : text, append);
      written.push(name);
    },
    get redactor() {
      return output.redactor;
    },
    written,
  };
}
