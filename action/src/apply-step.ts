import { isAbsolute, join } from 'node:path';
import { applySummaryLine, outcomeLine, type ApplyOutcome, type ApplyResult } from '../../src/core/apply/index.js';
import { shareRoom } from '../../src/core/plan/index.js';
import { mdCode, mdText, thousands } from '../../src/core/plan/render/markdown-parts.js';
import { annotateInvalidFiles } from './invalid-files.js';
import { failureMarkdown, fitSummary, fitTable, GITHUB_COMMENT_LIMIT } from './markdown.js';
import type { RoleflowRun } from './roleflow.js';
import { markerLine } from './sticky-comment.js';
import { isSeveral } from './tenants/tenant-inputs.js';
import { commentFooter, exitOutcome, postComment, roleflow, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: apply`. With `plan-file`, exactly that saved plan (refused with exit 4 if the tenant
 * changed since); without, a fresh plan applied with `--auto-approve` (the workflow's trigger,
 * typically a push to the main branch, is the approval). Exit 1 and 4 fail the step. A saved plan
 * of several tenants (or several in `tenant`) is applied tenant by tenant: a section each.
 */
export async function applyStep(ctx: StepContext): Promise<StepOutcome> {
  const { inputs } = ctx;
  const planFile = inputs.planFile === '' ? undefined : isAbsolute(inputs.planFile) ? inputs.planFile : join(inputs.workingDirectory, inputs.planFile);
  const argv = planFile === undefined ? ['apply', '--auto-approve', '--json'] : ['apply', planFile, '--json'];
  // roleflow refuses tenant options with a saved plan of several tenants: it applies each where it was planned.
  const selectTenants = planFile === undefined || !isSeveral(inputs.tenants);
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: true, selectTenants });
  const outcome = exitOutcome(ctx, 'apply', run.code, [1, 4]);
  await publishApplied(ctx, run, { command: 'apply', heading: (tenant) => `### roleflow apply to ${mdCode(tenant)}`, annotate: planFile === undefined });
  return outcome;
}

/**
 * What `apply --json` (or `promote --json`) printed, published: outputs (summed over tenants), each
 * Role's result in the log, a notice per tenant that changed, and the summary and the comment — a
 * section per tenant under `heading`, or what roleflow said when it stopped without a result.
 */
export async function publishApplied(
  ctx: StepContext,
  run: RoleflowRun,
  opts: { command: 'apply' | 'promote'; heading: (tenant: string) => string; annotate: boolean },
): Promise<void> {
  const { kit } = ctx;
  const applied = kit.redactValues(parseApplyResults(run.stdout));
  if (applied !== undefined) {
    const { results } = applied;
    const several = results.length > 1 || applied.notAttempted.length > 0;
    await kit.untrusted(() => {
      for (const result of results) {
        if (several) kit.info(`tenant ${result.tenant.name}: ${result.status}`);
        for (const o of result.results) kit.info(outcomeLine(o));
        if (result.results.length > 0) kit.info(applySummaryLine(result.summary));
      }
    });
    for (const result of results) {
      if (result.results.length > 0) kit.notice(applySummaryLine(result.summary), { title: `roleflow ${opts.command} to ${result.tenant.name}` });
    }
    const sum = (key: 'created' | 'updated' | 'deleted'): number => results.reduce((n, r) => n + r.summary[key], 0);
    kit.setOutput('has-changes', results.some((r) => r.results.length > 0));
    kit.setOutput('creates', sum('created'));
    kit.setOutput('updates', sum('updated'));
    kit.setOutput('deletes', sum('deleted'));
    kit.setOutput('apply-status', overallStatus(applied));
  } else if (run.code === 1 && opts.annotate) {
    await annotateInvalidFiles(ctx);
  }
  const render = (maxChars: number, marker?: string): string =>
    applied === undefined
      ? failureMarkdown({ heading: opts.heading(ctx.tenant), what: `\`roleflow ${opts.command}\``, code: run.code, stderr: kit.redact(run.stderr) })
      : renderAppliedMarkdown(applied, opts.heading, maxChars, marker);
  await kit.appendSummary(fitSummary((maxChars) => render(maxChars)));
  const footer = commentFooter(ctx, opts.command);
  await postComment(ctx, opts.command, (marker) => kit.redact(`${render(GITHUB_COMMENT_LIMIT - footer.length - 1, marker)}\n${footer}`));
}

/** What `apply --json` printed: one tenant's result, or several tenants' in order and those not attempted. */
export interface AppliedTenants {
  results: ApplyResult[];
  /** Tenants of a saved plan of several that were not attempted: an earlier one failed or was refused. */
  notAttempted: string[];
}

export function parseApplyResults(stdout: string): AppliedTenants | undefined {
  try {
    const value = JSON.parse(stdout) as Partial<ApplyResult> & { tenants?: unknown; not_attempted?: unknown };
    if (isApplyResult(value)) return { results: [value], notAttempted: [] };
    if (!Array.isArray(value.tenants) || !value.tenants.every(isApplyResult)) return undefined;
    const notAttempted = Array.isArray(value.not_attempted) ? value.not_attempted.filter((n): n is string => typeof n === 'string') : [];
    return { results: value.tenants, notAttempted };
  } catch {
    return undefined;
  }
}

function isApplyResult(value: unknown): value is ApplyResult {
  const v = value as Partial<ApplyResult> | null;
  return typeof v === 'object' && v !== null && v.summary !== undefined && Array.isArray(v.results) && v.tenant !== undefined;
}

/** One tenant's status; over several, the first that is not a success, else `applied` if any was. */
function overallStatus({ results, notAttempted }: AppliedTenants): string {
  const bad = results.find((r) => r.status !== 'applied' && r.status !== 'no_changes');
  if (bad !== undefined) return bad.status;
  if (notAttempted.length > 0) return 'failed';
  return results.some((r) => r.status === 'applied') ? 'applied' : 'no_changes';
}

/** One tenant's results as before; several, under a line of totals, a section each sharing the room. */
function renderAppliedMarkdown(applied: AppliedTenants, heading: (tenant: string) => string, maxChars: number, marker?: string): string {
  const { results, notAttempted } = applied;
  if (results.length === 1 && notAttempted.length === 0) return renderApplyMarkdown(results[0]!, heading(results[0]!.tenant.name), maxChars, marker);
  const skipped = notAttempted.length === 0 ? [] : [`Not attempted (an earlier tenant did not apply): ${notAttempted.map(mdCode).join(', ')}.`, ''];
  const head = [...(marker === undefined ? [] : [markerLine(marker)]), `## roleflow apply to ${thousands(results.length + notAttempted.length)} tenants`, '', ...skipped].join('\n');
  const needs = results.map((r) => renderApplyMarkdown(r, heading(r.tenant.name), Infinity).length);
  const budgets = shareRoom(needs, maxChars - head.length - results.length - 1);
  return `${head}\n${results.map((r, i) => renderApplyMarkdown(r, heading(r.tenant.name), budgets[i]!)).join('\n')}`;
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
