import { isAbsolute, join } from 'node:path';
import { applySummaryLine, outcomeLine, type ApplyOutcome, type ApplyResult } from '../../src/core/apply/index.js';
import { mdCode, mdText, thousands } from '../../src/core/plan/markdown-parts.js';
import { annotateInvalidFiles } from './invalid-files.js';
import { failureMarkdown, fitSummary, fitTable, GITHUB_COMMENT_LIMIT } from './markdown.js';
import { markerLine } from './sticky-comment.js';
import { commentFooter, exitOutcome, postComment, roleflow, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: apply`. With `plan-file`, exactly that saved plan (refused with exit 4 if the tenant
 * changed since); without, a fresh plan applied with `--auto-approve` (the workflow's trigger,
 * typically a push to the main branch, is the approval). Exit 1 and 4 fail the step.
 */
export async function applyStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit, inputs } = ctx;
  const planFile = inputs.planFile === '' ? undefined : isAbsolute(inputs.planFile) ? inputs.planFile : join(inputs.workingDirectory, inputs.planFile);
  const argv = planFile === undefined ? ['apply', '--auto-approve', '--json'] : ['apply', planFile, '--json'];
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: true });
  const result = kit.redactValues(parseApplyResult(run.stdout));

  const outcome = exitOutcome(ctx, 'apply', run.code, [1, 4]);
  if (result !== undefined) {
    await kit.untrusted(() => {
      for (const o of result.results) kit.info(outcomeLine(o));
      if (result.results.length > 0) kit.info(applySummaryLine(result.summary));
    });
    if (result.results.length > 0) kit.notice(applySummaryLine(result.summary), { title: `roleflow apply to ${ctx.tenant}` });
    kit.setOutput('has-changes', result.results.length > 0);
    kit.setOutput('creates', result.summary.created);
    kit.setOutput('updates', result.summary.updated);
    kit.setOutput('deletes', result.summary.deleted);
    kit.setOutput('apply-status', result.status);
  } else if (run.code === 1 && planFile === undefined) {
    await annotateInvalidFiles(ctx);
  }

  const heading = `### roleflow apply to ${mdCode(ctx.tenant)}`;
  const render = (maxChars: number, marker?: string): string =>
    result === undefined
      ? failureMarkdown({ heading, what: '`roleflow apply`', code: run.code, stderr: kit.redact(run.stderr) })
      : renderApplyMarkdown(result, heading, maxChars, marker);
  await kit.appendSummary(fitSummary((maxChars) => render(maxChars)));
  const footer = commentFooter(ctx, 'apply');
  await postComment(ctx, 'apply', (marker) => kit.redact(`${render(GITHUB_COMMENT_LIMIT - footer.length - 1, marker)}\n${footer}`));
  return outcome;
}

export function parseApplyResult(stdout: string): ApplyResult | undefined {
  try {
    const value = JSON.parse(stdout) as Partial<ApplyResult>;
    return value.summary !== undefined && Array.isArray(value.results) && value.tenant !== undefined ? (value as ApplyResult) : undefined;
  } catch {
    return undefined;
  }
}

const STATUS_ICON: Record<ApplyOutcome['status'], string> = {
  created: '➕ created',
  updated: '✏️ updated',
  deleted: '🗑️ deleted',
  failed: '❌ failed',
  unknown: '❓ outcome unknown',
  skipped: '⏭️ skipped',
  not_started: '⏸️ not started',
};

/** The per-Role results, failures first, within `maxChars`; what is cut is said. */
export function renderApplyMarkdown(result: ApplyResult, heading: string, maxChars: number, marker?: string): string {
  const head = [...(marker === undefined ? [] : [markerLine(marker)]), heading, ''];
  if (result.status === 'refused') {
    head.push('> [!CAUTION]', '> Refused: nothing was applied.', ...(result.reasons ?? []).map((r) => `> - ${mdText(r)}`), '');
  } else if (result.results.length === 0) {
    head.push('No changes: the tenant already matches the role files.', '');
  } else {
    head.push(`**${mdText(applySummaryLine(result.summary))}**`, '');
  }
  const top = head.join('\n');
  if (result.results.length === 0) return top;
  const tableHead = '| | Role | File | Detail |\n|---|---|---|---|\n';
  const bad = (o: ApplyOutcome): number => (o.status === 'failed' || o.status === 'unknown' || o.status === 'skipped' || o.status === 'not_started' ? 0 : 1);
  const rows = [...result.results]
    .sort((a, b) => bad(a) - bad(b))
    .map((o) => `| ${STATUS_ICON[o.status]} | ${mdCode(o.name)}${o.renamed_from === undefined ? '' : ` (was ${mdCode(o.renamed_from)})`} | ${o.file === undefined ? '' : mdCode(o.file)} | ${mdText(o.error ?? '')} |\n`);
  return fitTable(top, tableHead, rows, maxChars, (n) => `\n… ${thousands(n)} more results not shown; the log lists every Role.\n`);
}
