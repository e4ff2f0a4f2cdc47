import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { planHasChanges, planSummaryLine, renderPlanMarkdown, renderPlanText, type Plan } from '../../src/core/plan/index.js';
import { annotateInvalidFiles, annotateIssues } from './invalid-files.js';
import { failureMarkdown, fitSummary, GITHUB_COMMENT_LIMIT, mdCode } from './markdown.js';
import { commentFooter, exitOutcome, postComment, roleflow, tempFileFor, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: plan`. roleflow plans in-process and prints the plan as JSON (`--json`) while saving
 * it (`--out`) for a later `apply`; everything the Action shows is rendered from that data.
 * Exit 2 (changes, with `--detailed-exitcode`) fails the step only with `fail-on-changes`.
 */
export async function planStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit, inputs } = ctx;
  const planFile = inputs.planFile !== '' ? join(inputs.workingDirectory, inputs.planFile) : tempFileFor(ctx, 'plan');
  // A plan left by an earlier step must never pass for this one's.
  rmSync(planFile, { force: true });
  const argv = ['plan', '--out', planFile, '--json'];
  if (inputs.failOnChanges && !inputs.args.includes('--detailed-exitcode')) argv.push('--detailed-exitcode');
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: true });
  // Redacted before use: a secret in a role file must not reach the comment in any form.
  const printed = kit.redactValues(parsePlan(run.stdout));
  // Role files that could not be read: a plan of nothing that holds their problems. The step
  // reports it as a failure, the problems annotated at their lines.
  const plan = printed !== undefined && printed.issues.length === 0 ? printed : undefined;

  const outcome = exitOutcome(ctx, 'plan', run.code, inputs.failOnChanges ? [1, 2, 4] : [1, 4]);
  if (plan !== undefined) {
    await kit.untrusted(() => kit.info(renderPlanText(plan, { color: false })));
    const hasChanges = planHasChanges(plan);
    // At the top of the run's page, with the other annotations.
    if (hasChanges) kit.notice(planSummaryLine(plan), { title: `roleflow plan for ${ctx.tenant}` });
    kit.setOutput('has-changes', hasChanges);
    kit.setOutput('creates', plan.summary.create);
    kit.setOutput('updates', plan.summary.update);
    kit.setOutput('deletes', plan.summary.delete);
    if (plan.guards.length > 0) for (const guard of plan.guards) kit.error(`roleflow plan refused: ${guard.message}`);
  } else if (printed !== undefined) {
    annotateIssues(ctx, printed.issues);
  } else if (run.code === 1) {
    await annotateInvalidFiles(ctx);
  }
  if (existsSync(planFile)) kit.setOutput('plan-file', planFile);

  const heading = `### roleflow plan for ${mdCode(ctx.tenant)}`;
  const failed = (): string => failureMarkdown({ heading, what: '`roleflow plan`', code: run.code, stderr: kit.redact(run.stderr) });
  await kit.appendSummary(plan === undefined ? failed() : fitSummary((maxChars) => renderPlanMarkdown(plan, { maxChars })));

  const footer = commentFooter(ctx, 'plan');
  await postComment(ctx, 'plan', (marker) => {
    const maxChars = GITHUB_COMMENT_LIMIT - footer.length - 1;
    const body = plan === undefined ? failed() : renderPlanMarkdown(plan, { maxChars, marker });
    return kit.redact(`${body}\n${footer}`);
  });
  return outcome;
}

/** The plan JSON roleflow printed; undefined when it stopped before planning. */
export function parsePlan(stdout: string): Plan | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Plan>;
    return value.format_version !== undefined && Array.isArray(value.changes) && value.summary !== undefined ? (value as Plan) : undefined;
  } catch {
    return undefined;
  }
}
