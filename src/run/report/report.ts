import { parseThreshold } from '../../core/compare/index.js';
import { RoleflowError } from '../../core/errors.js';
import { environmentSecrets } from '../../core/text/redact.js';
import { safeText } from '../../core/text/safe-text.js';
import { writeReportFile } from '../../files/runs/report-file.js';
import { resolve } from 'node:path';
import { COMPARE_FORMATS, renderComparison } from '../../report/combine/compare.js';
import { missingShardsText } from '../../report/digest.js';
import { parsePassRate } from '../../core/runs/loop/index.js';
import { renderSummary, renderTestResult } from '../../report/console.js';
import { noTestRanError } from '../../report/no-tests.js';
import { createReporters, parseReporters } from '../../report/reporters.js';
import type { ReportSinks } from '../../report/reporter.js';
import { mergeReportFiles } from './report-merge.js';
import { ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { compareReportFiles, readJsonReports } from '../read-reports.js';

export interface ReportMergeOptions extends CommonOptions {
  /** The JSON reports of the shards (with --prefer-last: a run, then its reruns). */
  reports: readonly string[];
  /** `--out`: the merged JSON report (default roleflow-report.json; `-`: stdout). */
  out?: string | undefined;
  /** `--reporter NAME[=FILE]`: the merged report rendered again. */
  reporters: readonly string[];
  allowPartial: boolean;
  preferLast?: boolean | undefined;
  /** `--min-pass-rate`: the merged suite judged as a whole (default: the reports' own). */
  minPassRate?: string | undefined;
  passWithNoTests: boolean;
}

/**
 * `roleflow report merge`: the JSON reports of a sharded run (or a run and its reruns), checked to
 * be its shards, merged one result at a time (`mergeReportFiles`). The console prints each result
 * as it goes by; the other reporters render the merged report once written. Exit 3 when a test
 * failed (0 when the pass rate is met), 1 when none ran.
 */
export async function reportMerge(options: ReportMergeOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  // The reports were redacted when written; credentials in the environment are hidden here too.
  output.addSecrets(environmentSecrets(ports.env));
  const reporters = parseReporters(options.reporters, false);
  if (!reporters.ok) throw new RoleflowError(reporters.error);
  const rate = options.minPassRate === undefined ? undefined : parsePassRate(options.minPassRate, '--min-pass-rate');
  if (rate && !rate.ok) throw new RoleflowError(rate.error, 'usage');
  const out = options.out ?? 'roleflow-report.json';
  // `--out -` alone: the merged JSON is all of stdout.
  const specs = out === '-' && options.reporters.length === 0 ? [] : reporters.value;
  if (out === '-' && specs.some((r) => r.name === 'github' || r.file === undefined || r.file === '-')) {
    throw new RoleflowError('--out - writes the merged report on stdout: give the other reporters a file each (--reporter NAME=FILE)', 'usage');
  }
  const style = { color: output.color('stdout') };
  const live = specs.some(onStdoutConsole);
  const merged = await mergeReportFiles(
    { cwd: ports.cwd, files: options.reports, out, allowPartial: options.allowPartial, preferLast: options.preferLast === true, minPassRate: rate?.ok ? rate.value : undefined, redactor: output.redactor },
    { ...(live && { result: (r) => output.out(renderTestResult(r, style)) }), stdout: (piece) => output.dataBytes(piece, (p) => [Buffer.from(p, 'utf8')]) },
  );
  for (const warning of merged.warnings) output.err(warning);
  const { report, totals } = merged;
  if (live) output.out(`\n${renderSummary(report, style, totals.skippedChecks)}`);
  const written = out === '-' ? [] : [out];
  const others = specs.filter((r) => !onStdoutConsole(r));
  if (others.length > 0) {
    const sinks = reportSinks(ports);
    const full = (await readJsonReports(ports.cwd, [out]))[0]!.report;
    for (const reporter of createReporters(others, sinks, { style, live: false })) await reporter.onRunEnd(full);
    written.push(...sinks.written);
  }
  const partial = report.missing_shards?.length ? `; ${missingShardsText(report.missing_shards)}` : '';
  const n = options.reports.length;
  output.err(`merged ${n} ${n === 1 ? 'report' : 'reports'} (${report.summary.tests} results)${partial}${written.length > 0 ? `; wrote ${written.map(safeText).join(', ')}` : ''}`);
  if (report.summary.failed > 0) return report.gate?.passed ? ExitCode.Ok : ExitCode.TestsFailed;
  const none = totals.noTestRan;
  if (none === undefined) return ExitCode.Ok;
  output.err(options.passWithNoTests ? `${none} (--pass-with-no-tests)` : `error: ${noTestRanError(none)}`);
  return options.passWithNoTests ? ExitCode.Ok : ExitCode.Error;
}

function onStdoutConsole(r: { name: string; file?: string }): boolean {
  return r.name === 'console' && (r.file === undefined || r.file === '-');
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
