import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { planHasChanges, planSummaryLine, renderPlanMarkdown, renderPlanText, type Plan } from '../../src/core/plan/index.js';
import { annotateInvalidFiles, annotateIssues } from './invalid-files.js';
import { failureMarkdown, fitSummary, GITHUB_COMMENT_LIMIT, mdCode } from './markdown.js';
import type { RoleflowRun } from './roleflow.js';
import { commentFooter, exitOutcome, postComment, roleflow, tempFileFor, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: plan`. roleflow plans in-process and prints the plan as JSON (`--json`) while saving
 * it (`--out`) for a later `apply`; everything the Action shows is rendered from that data. (Over
 * several tenants: `planTenantsStep`.)
 * Exit 2 (changes, with `--detailed-exitcode`) fails the step only with `fail-on-changes`.
 */
export async function planStep(ctx: StepContext): Promise<StepOutcome> {
  return runPlan(ctx, publishPlan);
}

/**
 * `roleflow plan --out FILE --json` for the step's tenants, then `publish` what it printed; the
 * `exitcode` and `plan-file` outputs, and the step's outcome.
 */
export async function runPlan(ctx: StepContext, publish: (ctx: StepContext, run: RoleflowRun) => Promise<void>): Promise<StepOutcome> {
  const { inputs } = ctx;
  const planFile = inputs.planFile !== '' ? join(inputs.workingDirectory, inputs.planFile) : tempFileFor(ctx, 'plan');
  // A plan left by an earlier step must never pass for this one's.
  rmSync(planFile, { force: true });
  const argv = ['plan', '--out', planFile, '--json'];
  if (inputs.failOnChanges && !inputs.args.includes('--detailed-exitcode')) argv.push('--detailed-exitcode');
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: true });
  const outcome = exitOutcome(ctx, 'plan', run.code, inputs.failOnChanges ? [1, 2, 4] : [1, 4]);
  await publish(ctx, run);
  if (existsSync(planFile)) ctx.kit.setOutput('plan-file', planFile);
  return outcome;
}

/** One tenant's plan: outputs, the log, annotations, the summary and the comment. */
async function publishPlan(ctx: StepContext, run: RoleflowRun): Promise<void> {
  const { kit } = ctx;
  // Redacted before use: a secret in a role file must not reach the comment in any form.
  const printed = kit.redactValues(parsePlan(run.stdout));
  // Role files that could not be read: a plan of nothing that holds their problems. The step
  // reports it as a failure, the problems annotated at their lines.
  const plan = printed !== undefined && printed.issues.length === 0 ? printed : undefined;
  if (plan !== undefined) {
    await kit.untrusted(() => kit.info(renderPlanText(plan, { color: false })));
    setPlanOutputs(ctx, [plan]);
  } else if (printed !== undefined) {
    annotateIssues(ctx, printed.issues);
  } else if (run.code === 1) {
    await annotateInvalidFiles(ctx);
  }
  await publishPlanMarkdown(ctx, run, plan === undefined ? undefined : (maxChars, marker) => renderPlanMarkdown(plan, { maxChars, ...(marker === undefined ? {} : { marker }) }));
}

/**
 * The outputs of the plans of one run (sums over the tenants), a notice for each plan with
 * changes, and an error annotation for each guard that refuses one.
 */
export function setPlanOutputs(ctx: StepContext, plans: readonly Plan[]): void {
  const { kit } = ctx;
  const sum = (key: 'create' | 'update' | 'delete'): number => plans.reduce((n, plan) => n + plan.summary[key], 0);
  for (const plan of plans) {
    // At the top of the run's page, with the other annotations.
    if (planHasChanges(plan)) kit.notice(planSummaryLine(plan), { title: `roleflow plan for ${plan.tenant.name}` });
    for (const guard of plan.guards) kit.error(`roleflow plan refused${plans.length > 1 ? ` on ${plan.tenant.name}` : ''}: ${guard.message}`);
  }
  kit.setOutput('has-changes', plans.some(planHasChanges));
  kit.setOutput('creates', sum('create'));
  kit.setOutput('updates', sum('update'));
  kit.setOutput('deletes', sum('delete'));
}

/**
 * The job summary and the comment: `render(maxChars, marker)` of the plan, or — when roleflow
 * stopped without one — what it said.
 */
export async function publishPlanMarkdown(ctx: StepContext, run: RoleflowRun, render: ((maxChars: number, marker?: string) => string) | undefined): Promise<void> {
  const { kit } = ctx;
  const heading = `### roleflow plan for ${mdCode(ctx.tenant)}`;
  const failed = (): string => failureMarkdown({ heading, what: '`roleflow plan`', code: run.code, stderr: kit.redact(run.stderr) });
  await kit.appendSummary(render === undefined ? failed() : fitSummary((maxChars) => render(maxChars)));
  const footer = commentFooter(ctx, 'plan');
  await postComment(ctx, 'plan', (marker) => {
    const body = render === undefined ? failed() : render(GITHUB_COMMENT_LIMIT - footer.length - 1, marker);
    return kit.redact(`${body}\n${footer}`);
  });
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
