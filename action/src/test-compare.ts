import { existsSync } from 'node:fs';
import { mdCode } from './markdown.js';
import { inWorkingDirectory, roleflow, type StepContext, type StepOutcome } from './step.js';
import { cutToFit } from './test-markdown.js';

/** The `baseline` input: the report to compare with, or why there is none. */
export type Baseline = { file: string } | { missing: string } | undefined;

/** A run compared with its baseline by `roleflow report compare`. */
export interface BaselineComparison {
  /** 0 no regression, 3 a significant regression or a newly failing test, 1 could not compare. */
  code: number;
  /** The comparison as roleflow renders it for a pull request, or its error lines. */
  markdown: string;
}

/**
 * The `baseline` input resolved in the working directory. A baseline that is not there (the
 * default branch has no report yet, the download found nothing) is a warning, not a failure:
 * the tests run without it, relative budgets are skipped, and nothing is compared.
 */
export function baselineOf(ctx: StepContext): Baseline {
  if (ctx.inputs.baseline === '') return undefined;
  const file = inWorkingDirectory(ctx, ctx.inputs.baseline);
  if (existsSync(file)) return { file };
  ctx.kit.warning(`No baseline report at ${ctx.inputs.baseline}: relative budgets are skipped and nothing is compared.`);
  return { missing: ctx.inputs.baseline };
}

/**
 * `roleflow report compare BASE HEAD --format markdown --fail-on-regression`: always asked to
 * fail, so its exit code says whether there is a regression; whether the step fails on it is
 * the `fail-on-regression` input's to say (`compareOutcome`).
 */
export async function compareWithBaseline(ctx: StepContext, baseline: string, reportFile: string): Promise<BaselineComparison> {
  const threshold = ctx.inputs.regressionThreshold === '' ? [] : ['--threshold', ctx.inputs.regressionThreshold];
  const argv = ['report', 'compare', baseline, reportFile, '--format', 'markdown', '--fail-on-regression', ...threshold];
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: false });
  if (run.code === 0 || run.code === 3) return { code: run.code, markdown: ctx.kit.redact(run.stdout) };
  const said = ctx.kit.redact(run.stderr).trim();
  return { code: run.code, markdown: `> [!CAUTION]\n> Not compared with the baseline: \`roleflow report compare\` failed (exit code ${run.code}).\n${said === '' ? '' : `>\n${said.split('\n').map((l) => `> ${l}`).join('\n')}\n`}` };
}

/**
 * The outputs `compare-exitcode` and `regression`, and the failure the comparison causes: always
 * when it could not be made (exit 1), on a regression only with `fail-on-regression`.
 */
export function compareOutcome(ctx: StepContext, comparison: BaselineComparison): StepOutcome {
  ctx.kit.setOutput('compare-exitcode', comparison.code);
  if (comparison.code === 0 || comparison.code === 3) ctx.kit.setOutput('regression', comparison.code === 3);
  if (comparison.code === 3 && ctx.inputs.failOnRegression) {
    return { failure: 'roleflow report compare: a significant regression or a newly failing test against the baseline (exit code 3)' };
  }
  if (comparison.code !== 0 && comparison.code !== 3) return { failure: `roleflow report compare exited with code ${comparison.code}` };
  return {};
}

/** The comparison as the comment's second part: at most `maxChars`, what is cut said. */
export function comparisonSection(baseline: Baseline, comparison: BaselineComparison | undefined, maxChars: number): string {
  if (baseline === undefined) return '';
  if ('missing' in baseline) return `\n> [!NOTE]\n> No baseline report at ${mdCode(baseline.missing)}: relative budgets were skipped and nothing was compared.\n`;
  if (comparison === undefined) return '';
  return cutToFit(`\n${comparison.markdown}`, maxChars, '\n… the comparison is cut to fit; all of it is in the job summary.\n');
}
