import { existsSync, rmSync } from 'node:fs';
import { mdCode } from '../../../src/core/plan/render/markdown-parts.js';
import { publishApplied } from '../apply-step.js';
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
 * trigger (and the job's environment, with its reviewers) is the approval: `--auto-approve
 * --json`, its result shown as `apply`'s (a refusal with its reasons); with `plan-file`, the
 * promotion is only planned and saved there (`--out`). Exit 1 and 4 fail the step.
 */
export async function promoteStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit, inputs } = ctx;
  const promote = inputs.promote!;
  const planFile = inputs.planFile === '' ? undefined : inWorkingDirectory(ctx, inputs.planFile);
  // A plan left by an earlier step must never pass for this one's.
  if (planFile !== undefined) rmSync(planFile, { force: true });
  const argv = ['promote', '--from', promote.from, '--to', promote.to, '--report', promote.report, ...(planFile === undefined ? ['--auto-approve', '--json'] : ['--out', planFile])];
  const run = await roleflow(ctx, argv, { streamStdout: planFile !== undefined, tenantCommand: true });

  const outcome = exitOutcome(ctx, 'promote', run.code, [1, 4]);
  const status: PromoteStatus = run.code === 0 ? (planFile === undefined ? 'promoted' : 'planned') : run.code === 4 ? 'refused' : 'failed';
  kit.setOutput('promote-status', status);
  const heading = `### roleflow promote ${mdCode(promote.from)} → ${mdCode(promote.to)}`;
  // Applied: the result of applying to `to`, as `apply` shows it (a refusal with its reasons).
  if (planFile === undefined) {
    await publishApplied(ctx, run, { command: 'promote', heading: () => heading, annotate: false });
    return outcome;
  }
  if (existsSync(planFile)) kit.setOutput('plan-file', planFile);
  const render = (maxChars: number, marker?: string): string => renderPlannedMarkdown(ctx, run, heading, status, maxChars, marker);
  await kit.appendSummary(fitSummary((maxChars) => render(maxChars)));
  const footer = commentFooter(ctx, 'promote');
  await postComment(ctx, 'promote', (marker) => kit.redact(`${render(GITHUB_COMMENT_LIMIT - footer.length - 1, marker)}\n${footer}`));
  return outcome;
}

const VERDICT: Record<PromoteStatus, (to: string) => string[]> = {
  promoted: (to) => [`✅ **Promoted** to ${to}.`],
  planned: (to) => [`📝 **Planned**: the promotion's plan for ${to} is saved (the \`plan-file\` output); nothing was applied.`],
  refused: (to) => ['> [!CAUTION]', `> **Refused**: nothing was sent to ${to}. roleflow's reasons:`],
  failed: () => ['> [!CAUTION]', '> `roleflow promote` failed (exit code 1).'],
};

/** `--out`: the verdict, then what roleflow said (the plan, or its reasons), within `maxChars`. */
function renderPlannedMarkdown(ctx: StepContext, run: RoleflowRun, heading: string, status: PromoteStatus, maxChars: number, marker?: string): string {
  const said = tailLines(ctx.kit.redact(`${run.stdout}\n${run.stderr}`.trim()), 200, 1000);
  const head = [...(marker === undefined ? [] : [markerLine(marker)]), heading, '', ...VERDICT[status](mdCode(ctx.inputs.promote!.to)), ''].join('\n');
  const text = `${head}\n${said === '' ? '' : fenced(said, 'text')}`;
  return text.length <= maxChars ? text : `${head}\n${fenced(tailLines(said, 20, 300), 'text')}`.slice(0, maxChars);
}
