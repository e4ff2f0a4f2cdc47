import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { checkPlanFresh, planBaseUrl, savedPlanRefusals, type Plan } from '../../core/plan/index.js';
import { quote, showName } from '../../core/roles/index.js';
import { readSavedPlan } from '../../files/plan-file.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { planTenantOf } from './fresh-plan.js';

/**
 * `apply PLANFILE`: the tenant must be the one the plan was made for and every planned Role as
 * it was. Anything else refuses the plan (exit 4) with every reason, before anything is sent.
 */
export async function checkSavedPlan(plan: Plan, tenant: OpenTenant): Promise<string[]> {
  const here = planTenantOf(tenant);
  const reasons: string[] = [];
  if (here.name !== plan.tenant.name) reasons.push(`the plan was made for tenant ${quote(plan.tenant.name)}, not ${quote(here.name)}`);
  if (planBaseUrl(here.baseUrl) !== plan.tenant.base_url) {
    reasons.push(`the plan was made for ${showName(plan.tenant.base_url)}, not ${showName(planBaseUrl(here.baseUrl))}`);
    return reasons;
  }
  const fresh = checkPlanFresh(plan, await tenant.client.listRoles());
  if (!fresh.fresh) reasons.push(...fresh.reasons);
  return reasons;
}

/**
 * `apply PLANFILE`, up to the point of carrying it out: the file read (exit 1 when it is not a
 * saved plan), refused when altered or when today's guards refuse it (before the tenant is
 * asked), then the tenant opened and checked (`checkSavedPlan`). A refusal says what and why.
 */
export async function openSavedPlan(opts: {
  cwd: string;
  planFile: string;
  config: Config;
  open: () => Promise<OpenTenant>;
  /** The plan, already read from `planFile` (one tenant's of a saved plan of several). */
  plan?: Plan;
}): Promise<{ plan: Plan; tenant: OpenTenant } | { refused: SavedPlanRefusal }> {
  const plan = opts.plan ?? (await readSavedPlan(resolve(opts.cwd, opts.planFile), opts.planFile));
  refuseBrokenPlan(plan);
  const { roles } = opts.config;
  const refusals = savedPlanRefusals(plan, { protect: roles.protect, maxDeletes: roles.maxDeletes, allowEmptyPrune: roles.allowEmptyPrune });
  if (refusals.length > 0) return { refused: { plan, what: 'is refused', reasons: refusals, otherTenant: false } };
  const tenant = await opts.open();
  let reasons: string[];
  try {
    reasons = await checkSavedPlan(plan, tenant);
  } catch (err) {
    await tenant.close();
    throw err;
  }
  if (reasons.length === 0) return { plan, tenant };
  await tenant.close();
  return { refused: { plan, what: 'no longer fits the tenant', reasons, otherTenant: tenant.target.name !== plan.tenant.name } };
}

/** Why `apply PLANFILE` refuses a saved plan; `otherTenant`: it was made for another tenant than the one asked. */
export interface SavedPlanRefusal {
  plan: Plan;
  what: string;
  reasons: string[];
  otherTenant: boolean;
}

/** Plans that carry problems or guards are never carried out. */
export function refuseBrokenPlan(plan: Plan): void {
  if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
  if (plan.guards.length > 0) {
    throw new RoleflowError(`the plan is refused by ${plan.guards.map((g) => g.message).join('; ')}`, 'guard');
  }
}
