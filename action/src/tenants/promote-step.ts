import { existsSync, rmSync } from 'node:fs';
import { mdCode } from '../../../src/core/plan/markdown-parts.js';
import { fenced, fitSummary, GITHUB_COMMENT_LIMIT, tailLines } from '../markdown.js';
import type { RoleflowRun } from '../roleflow.js';
import { markerLine } from '../sticky-comment.js';
import { commentFooter, exitOutcome, inWorkingDirectory, postComment, roleflow, type StepContext, type StepOutcome } from '../step.js';

/** What a promotion came to, by roleflow's exit code: the `promote-status` output. */
type PromoteStatus = 'promoted' | 'planned' | 'refused' | 'failed';

/**
 * `command: promote`. `roleflow promote --from A --to B --report FILE`: tenant B gets the role
 * files only when tenant A matches them and FILE is a complete, passing test report of A at this
 * commit; else roleflow refuses (exit 4) and sends nothing. As with `apply`, the workflow's
 * trigger (and the job's environment, with its reviewers) is the approval: `--auto-approve`;
 * with `plan-file`, the promotion is only planned and saved there (`--out`). Exit 1 and 4 fail
 * the step, each with roleflow's reasons in the summary and the comment.
 */
export async function promoteStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit, inputs } = ctx;
  const promote = inputs.promote!;
  const planFile = inputs.planFile === '' ? undefined : inWorkingDirectory(ctx, inputs.planFile);
  // A plan left by an earlier step must never pass for this one's.
  if (planFile !== undefined) rmSync(planFile, { force: true });
  const argv = ['promote', '--from', promote.from, '--to', promote.to, '--report', promote.report, ...(planFile === undefined ? ['--auto-approve'] : ['--out', planFile])];
  const run = await roleflow(ctx, argv, { streamStdout: true, tenantCommand: true });

  const outcome = exitOutcome(ctx, 'promote', run.code, [1, 4]);
  const status: PromoteStatus = run.code === 0 ? (planFile === undefined ? 'promoted' : 'planned') : run.code === 4 ? 'refused' : 'failed';
  kit.setOutput('promote-status', status);
  if (planFile !== undefined && existsSync(planFile)) kit.setOutput('plan-file', planFile);
  if (status === 'promoted') kit.notice(`Promoted ${promote.from} to ${promote.to}`, { title: `roleflow promote to ${promote.to}` });

  const render = (maxChars: number, marker?: string): string => renderPromoteMarkdown(ctx, run, status, maxChars, marker);
  await kit.appendSummary(fitSummary((maxChars) => render(maxChars)));
  const footer = commentFooter(ctx, 'promote');
  await postComment(ctx, 'promote', (marker) => kit.redact(`${render(GITHUB_COMMENT_LIMIT - footer.length - 1, marker)}\n${footer}`));
  return outcome;
}

const VERDICT: Record<PromoteStatus, (from: string, to: string) => string[]> = {
  promoted: (from, to) => [`✅ **Promoted**: ${to} now matches the role files that ${from} matches and passed its flow tests with.`],
  planned: (_from, to) => [`📝 **Planned**: the promotion's plan for ${to} is saved (the \`plan-file\` output); nothing was applied.`],
  refused: (_from, to) => ['> [!CAUTION]', `> **Refused**: nothing was sent to ${to}. roleflow's reasons:`],
  failed: () => ['> [!CAUTION]', '> `roleflow promote` failed (exit code 1).'],
};

/** The verdict, then what roleflow said (its reasons when it refused), within `maxChars`. */
function renderPromoteMarkdown(ctx: StepContext, run: RoleflowRun, status: PromoteStatus, maxChars: number, marker?: string): string {
  const { from, to } = ctx.inputs.promote!;
  const said = tailLines(ctx.kit.redact(`${run.stdout}\n${run.stderr}`.trim()), 200, 1000);
  const head = [...(marker === undefined ? [] : [markerLine(marker)]), `### roleflow promote ${mdCode(from)} → ${mdCode(to)}`, '', ...VERDICT[status](mdCode(from), mdCode(to)), ''];
  const text = `${head.join('\n')}\n${said === '' ? '' : fenced(said, 'text')}`;
  return text.length <= maxChars ? text : `${head.join('\n')}\n${fenced(tailLines(said, 20, 300), 'text')}`.slice(0, maxChars);
}
