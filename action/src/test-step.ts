import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { renderAnnotations, renderStepSummary } from '../../src/report/github.js';
import type { RunReport } from '../../src/report/model.js';
import { noTestRanReason, PASS_WITH_NO_TESTS } from '../../src/report/no-tests.js';
import { annotateInvalidFiles } from './invalid-files.js';
import { failureMarkdown, fitSummary, GITHUB_COMMENT_LIMIT, mdCode, SUMMARY_MAX_BYTES } from './markdown.js';
import { commentFooter, exitOutcome, inWorkingDirectory, postComment, repoPath, roleflow, tempFileFor, type StepContext, type StepOutcome } from './step.js';
import { baselineOf, compareOutcome, comparisonSection, compareWithBaseline, type Baseline, type BaselineComparison } from './test-compare.js';
import { cutToFit, renderReportMarkdown } from './test-markdown.js';
import type { RoleflowRun } from './roleflow.js';

/**
 * `command: test`. roleflow runs the flow tests in-process: the console reporter for the log and
 * the JSON report to a file, from which the Action sets its outputs, annotates the failing
 * assertions at their lines, writes the job summary and the comment. Exit 3 (tests failed) and 1
 * fail the step. With `baseline`, relative budgets are judged against it (`--baseline`) and the run
 * is compared with it; with `html-report`, the HTML report is written too.
 */
export async function testStep(ctx: StepContext): Promise<StepOutcome> {
  const reportFile = tempFileFor(ctx, 'report');
  rmSync(reportFile, { force: true });
  const baseline = baselineOf(ctx);
  const html = htmlReportOf(ctx);
  const argv = ['test', '--reporter', 'console', '--reporter', `json=${reportFile}`, ...htmlReporter(html)];
  if (baseline !== undefined && 'file' in baseline) argv.push('--baseline', baseline.file);
  const run = await roleflow(ctx, argv, { streamStdout: true, tenantCommand: true });
  return publishReport(ctx, 'test', run, { reportFile, baseline, html });
}

/**
 * `command: merge`. The JSON reports of a sharded matrix (`args`: files, or folders holding them,
 * such as a downloaded-artifacts folder, and options of `report merge` such as
 * `--pass-with-no-tests`) merged by `roleflow report merge`, then published as one
 * run: outputs, annotations, summary, and the same sticky comment a single `test` run keeps.
 */
export async function mergeStep(ctx: StepContext): Promise<StepOutcome> {
  const reportFile = tempFileFor(ctx, 'report');
  rmSync(reportFile, { force: true });
  // In `args`, options (`--pass-with-no-tests`, `--allow-partial`) go to `report merge`; the rest name reports.
  const options = ctx.inputs.args.filter((arg) => arg.startsWith('-'));
  const paths = ctx.inputs.args.filter((arg) => !arg.startsWith('-'));
  const files = paths.flatMap((arg) => reportFilesUnder(isAbsolute(arg) ? arg : join(ctx.inputs.workingDirectory, arg)));
  if (files.length === 0) return { failure: `merge: no JSON reports found in ${paths.join(', ') || 'args (give the files or their folder)'}` };
  const baseline = baselineOf(ctx);
  const html = htmlReportOf(ctx);
  const run = await roleflow(ctx, ['report', 'merge', ...files, ...options, '--out', reportFile, ...htmlReporter(html)], { streamStdout: true, tenantCommand: false });
  return publishReport(ctx, 'report merge', run, { reportFile, baseline, html });
}

interface ReportFiles {
  /** The JSON report roleflow writes. */
  reportFile: string;
  baseline: Baseline;
  /** Where the HTML report is asked for (absolute); undefined when it is not. */
  html: string | undefined;
}

/**
 * Outputs, annotations, summary and the `test` comment from a JSON report; `command` names what
 * ran. With a baseline, the run is compared with it, in the summary and under the comment's table.
 */
async function publishReport(ctx: StepContext, command: 'test' | 'report merge', run: RoleflowRun, files: ReportFiles): Promise<StepOutcome> {
  const { kit } = ctx;
  const { reportFile, baseline, html } = files;
  const report = readReport(reportFile, (value) => kit.redactValues(value));
  const outcome = exitOutcome(ctx, command, run.code, [1, 3]);
  let comparison: BaselineComparison | undefined;
  if (report !== undefined) {
    kit.setOutput('tests-passed', report.summary.passed);
    kit.setOutput('tests-failed', report.summary.failed);
    kit.setOutput('tests-skipped', report.summary.skipped);
    kit.setOutput('report-file', reportFile);
    // roleflow names files from the working directory; annotations need them from the repository root.
    const here = { ...report, results: report.results.map((r) => ({ ...r, file: repoPath(ctx, r.file) })) };
    kit.info(renderAnnotations(here));
    const summary = renderStepSummary(here);
    await kit.appendSummary(Buffer.byteLength(summary) < SUMMARY_MAX_BYTES * 0.9 ? summary : fitSummary((maxChars) => renderReportMarkdown(here, { maxChars })));
    if (baseline !== undefined && 'file' in baseline) {
      // Named as the workflow names it, for the comparison's heading.
      comparison = await compareWithBaseline(ctx, ctx.inputs.baseline, reportFile);
      // Within what GitHub keeps of a step's summary, beside the report's 90%.
      await kit.appendSummary(cutToFit(comparison.markdown, SUMMARY_MAX_BYTES / 16, '\n… the comparison is cut to fit.\n'));
    }
  } else {
    if (run.code === 1) await annotateInvalidFiles(ctx);
    await kit.appendSummary(failed(ctx, run));
  }
  if (html !== undefined && existsSync(html)) {
    kit.setOutput('html-report', html);
    await kit.appendSummary(`The HTML report is ${mdCode(repoPath(ctx, html))} (the step's \`html-report\` output): keep it with actions/upload-artifact.\n`);
  }
  const footer = commentFooter(ctx, command);
  // Merged shards keep the comment a single run would.
  await postComment(ctx, 'test', (marker) => {
    const section = comparisonSection(baseline, comparison, Math.floor(GITHUB_COMMENT_LIMIT / 2));
    const maxChars = GITHUB_COMMENT_LIMIT - footer.length - section.length - 1;
    const body = report === undefined ? failed(ctx, run) : renderReportMarkdown(report, { maxChars, marker });
    return kit.redact(`${body}${section}\n${footer}`);
  });
  const compared = comparison === undefined ? {} : compareOutcome(ctx, comparison);
  // A run that tested nothing fails the step with why, and how to accept it.
  const none = report === undefined || run.code !== 1 ? undefined : noTestRanReason(report);
  if (none !== undefined) return { failure: `roleflow ${command}: ${none}; \`args: ${PASS_WITH_NO_TESTS}\` accepts a run that tests nothing` };
  return outcome.failure !== undefined ? outcome : compared;
}

/** The `html-report` input in the working directory, any file of an earlier step removed first. */
function htmlReportOf(ctx: StepContext): string | undefined {
  if (ctx.inputs.htmlReport === '') return undefined;
  const file = inWorkingDirectory(ctx, ctx.inputs.htmlReport);
  rmSync(file, { force: true });
  return file;
}

function htmlReporter(html: string | undefined): string[] {
  return html === undefined ? [] : ['--reporter', `html=${html}`];
}

function failed(ctx: StepContext, run: RoleflowRun): string {
  return failureMarkdown({ heading: `### roleflow test on ${mdCode(ctx.tenant)}`, what: '`roleflow test`', code: run.code, stderr: ctx.kit.redact(run.stderr) });
}

/** The JSON report roleflow wrote; undefined when the run stopped before reporting. */
function readReport(file: string, redactValues: <T>(value: T) => T): RunReport | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunReport>;
    return value.summary !== undefined && Array.isArray(value.results) && value.tenant !== undefined ? redactValues(value as RunReport) : undefined;
  } catch {
    return undefined;
  }
}

/** A file as given; a folder's `*.json` files at any depth, sorted (artifacts download one folder each). */
function reportFilesUnder(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return [path];
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? reportFilesUnder(join(path, entry.name)) : entry.name.endsWith('.json') ? [join(path, entry.name)] : []));
}
