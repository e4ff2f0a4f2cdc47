import { isTenantPlanError, renderTenantPlansMarkdown, renderTenantPlansText, type Plan, type TenantPlanEntry } from '../../../src/core/plan/index.js';
import { annotateInvalidFiles, annotateIssues } from '../invalid-files.js';
import { parsePlan, publishPlanMarkdown, runPlan, setPlanOutputs } from '../plan-step.js';
import type { RoleflowRun } from '../roleflow.js';
import type { StepContext, StepOutcome } from '../step.js';

/** `command: plan` over several tenants: one plan of them all, shown as `publishTenantPlans` says. */
export function planTenantsStep(ctx: StepContext): Promise<StepOutcome> {
  return runPlan(ctx, publishTenantPlans);
}

/**
 * The plans of a run over several tenants (`tenant` one per line, `all-tenants`), from the one
 * JSON document roleflow prints for them (`{format_version, tenants: [<plan>…]}`): the outputs
 * summed over the tenants (with `changed-tenants`), each tenant's plan in the log, and ONE
 * summary and ONE comment — a table of the tenants, then a section per tenant.
 */
export async function publishTenantPlans(ctx: StepContext, run: RoleflowRun): Promise<void> {
  const { kit } = ctx;
  // Redacted before use, as one tenant's plan is.
  const printed = kit.redactValues(parseTenantPlans(run.stdout));
  // A tenant that could not be planned is shown in its place (its row says why); the sums are the others'.
  const planned = printed?.filter((entry): entry is Plan => !isTenantPlanError(entry)) ?? [];
  const issues = planned.flatMap((plan) => plan.issues);
  const plans = printed !== undefined && issues.length === 0 ? printed : undefined;
  if (plans !== undefined) {
    await kit.untrusted(() => kit.info(renderTenantPlansText(plans, { color: false })));
    setPlanOutputs(ctx, planned);
    kit.setOutput('changed-tenants', planned.filter((plan) => plan.changes.length > 0).map((plan) => plan.tenant.name).join('\n'));
  } else if (printed !== undefined) {
    // The same files for every tenant: each problem once.
    annotateIssues(ctx, [...new Map(issues.map((issue) => [JSON.stringify(issue), issue])).values()]);
  } else if (run.code === 1) {
    await annotateInvalidFiles(ctx);
  }
  await publishPlanMarkdown(ctx, run, plans === undefined ? undefined : (maxChars, marker) => renderTenantPlansMarkdown(plans, { maxChars, ...(marker === undefined ? {} : { marker }) }));
}

/**
 * The plans roleflow printed for several tenants (a tenant that could not be planned as its
 * `{tenant, error}` entry); one tenant's plan alone is a list of one.
 */
export function parseTenantPlans(stdout: string): TenantPlanEntry[] | undefined {
  const single = parsePlan(stdout);
  if (single !== undefined) return [single];
  try {
    const value = JSON.parse(stdout.trim()) as { format_version?: unknown; tenants?: unknown };
    if (value.format_version === undefined || !Array.isArray(value.tenants)) return undefined;
    const plans = value.tenants.map((plan: unknown) => (isPlanError(plan) ? plan : parsePlan(JSON.stringify(plan))));
    return plans.every((plan) => plan !== undefined) && plans.length > 0 ? (plans as TenantPlanEntry[]) : undefined;
  } catch {
    return undefined;
  }
}

function isPlanError(value: unknown): value is TenantPlanEntry {
  const entry = value as { tenant?: { name?: unknown }; error?: { message?: unknown } } | null;
  return typeof entry?.tenant?.name === 'string' && typeof entry.error?.message === 'string';
}
