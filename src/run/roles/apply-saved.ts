import pLimit from 'p-limit';
import type { Config } from '../../core/config/config.js';
import type { RoleflowError } from '../../core/errors.js';
import { planSummaryLine, savedPlanRefusals, tenantPlansDigest, type Plan, type TenantPlans } from '../../core/plan/index.js';
import { showName } from '../../core/roles/display.js';
import { isTenantFailure } from '../../core/tenants/index.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { ExitCode, type Ports } from '../ports.js';
import { applyTenantsInOrder, TENANTS_AT_ONCE } from '../several-tenants.js';
import { openTenants } from '../tenants.js';
import { checkSavedPlan, openSavedPlan } from './saved-plan.js';
import { parseAllows } from '../policy/policy-flags.js';
import { carryOutPlan, ended, finishApply, tenantHeading, tenantTurn, type ApplyFlags, type TenantApplyEnd } from './applying.js';
import { safeText } from '../../core/text/safe-text.js';

/**
 * A saved plan of several tenants: refused whole (nothing sent anywhere) when the document or
 * any tenant's plan was altered or today's guards refuse one; every tenant's config and token
 * resolved (an unknown tenant or a missing token: exit 1, nothing sent); then every tenant
 * checked read-only (its base URL, one list: the token, and whether its planned Roles changed
 * since) — any not ready refuses the whole file, every tenant's reasons named, nothing applied
 * anywhere; then tenant by tenant in order, each checked again just before its turn (`apply
 * PLANFILE` of one), stopping at the first that is refused or fails.
 */
export async function applySavedTenants(ports: Ports, config: Config, planFile: string, saved: TenantPlans, flags: ApplyFlags): Promise<number> {
  const { roles } = config;
  const altered = saved.digest === tenantPlansDigest(saved.tenants) ? [] : ['its tenants were removed, added or reordered since `roleflow plan --out` wrote it: its digest does not match'];
  const guarded = saved.tenants.map((plan) => ({ name: plan.tenant.name, reasons: savedPlanRefusals(plan, { protect: roles.protect, maxDeletes: roles.maxDeletes, allowEmptyPrune: roles.allowEmptyPrune }) }));
  if (altered.length > 0 || guarded.some((c) => c.reasons.length > 0)) return refuseSavedTenants(ports, planFile, saved, altered, guarded, flags);
  const opened = await openTenants(ports, config, saved.tenants.map((p) => p.tenant.name));
  const steps = saved.tenants.map((plan, i) => ({ plan, tenant: opened[i]! }));
  const closeAll = () => Promise.all(opened.map((t) => t.close().catch(() => undefined)));
  const checks = await checkSavedTenants(steps).catch(async (error: unknown) => {
    await closeAll();
    throw error;
  });
  if (checks.some((c) => c.reasons.length > 0 || c.failure !== undefined)) {
    await closeAll();
    return refuseSavedTenants(ports, planFile, saved, [], checks, flags);
  }
  const run = await applyTenantsInOrder(steps, (s) => s.plan.tenant.name, ({ plan, tenant }) => {
    tenantHeading(ports, plan.tenant.name, flags.json);
    return tenantTurn(ports, plan, () => applySaved(ports, config, planFile, plan, flags, () => Promise.resolve(tenant), true));
  });
  return finishApply(ports, run.ended, run, flags.json);
}

/** A saved plan of several refused whole, nothing sent anywhere (`savedTenantsRefusal`). */
function refuseSavedTenants(ports: Ports, planFile: string, saved: TenantPlans, whole: readonly string[], checks: readonly SavedTenantCheck[], flags: ApplyFlags): number {
  const refusal = savedTenantsRefusal(planFile, saved.tenants, whole, checks);
  ports.output.err(refusal.message);
  finishApply(ports, refusal.ends.map((e) => ended(e.code, e.plan, e.status, [], e.reasons)), { notAttempted: refusal.notAttempted }, flags.json);
  return refusal.code;
}

/**
 * One tenant's saved plan, checked against the tenant `open` gives and carried out. `several`:
 * one tenant of a saved plan of several.
 */
export async function applySaved(ports: Ports, config: Config, planFile: string, plan: Plan, flags: ApplyFlags, open: () => Promise<OpenTenant>, several = false): Promise<TenantApplyEnd> {
  const { output } = ports;
  const checked = await openSavedPlan({ cwd: ports.cwd, planFile, config, plan, open, allows: parseAllows(flags.allow ?? []) });
  if ('refused' in checked) {
    const { what, reasons, otherTenant } = checked.refused;
    const tenant = showName(plan.tenant.name);
    const fix = otherTenant
      ? `It names its tenant: roleflow apply ${safeText(planFile)} --tenant ${tenant} (or without --tenant and ROLEFLOW_TENANT) applies it there.`
      : `Make a new plan: roleflow plan --tenant ${tenant} --out FILE (if roleflow promote made this one, run roleflow promote again: a plan made by plan skips its gate)`;
    const where = several ? ` (tenant ${plan.tenant.name})` : '';
    output.err([`error: the saved plan ${safeText(planFile)}${where} ${what}; nothing was applied${several ? ` to ${plan.tenant.name}` : ''}:`, ...reasons.map((r) => `  - ${r}`), fix].join('\n'));
    return ended(ExitCode.Refused, plan, 'refused', [], reasons);
  }
  if (!flags.json) output.out(`Applying the saved plan ${safeText(planFile)}${several ? '' : ` to tenant ${checked.plan.tenant.name}`}. ${planSummaryLine(checked.plan)}`);
  return carryOutPlan(ports, checked.plan, checked.tenant, flags, several);
}

/** How one tenant of a saved plan of several stands before any is applied. */
export interface SavedTenantCheck {
  name: string;
  /** Why its plan no longer fits it (another base URL, Roles changed since): empty when it fits. */
  reasons: string[];
  /** Why it could not be asked (unreachable, refusing the token): undefined when it answered. */
  failure?: RoleflowError;
}

/**
 * Every tenant of a saved plan of several checked read-only before the first is applied: its
 * base URL against the plan's (offline), then one list of its Roles (the token, and whether the
 * planned Roles are as they were). Nothing is sent but the lists, a few at once.
 */
export async function checkSavedTenants(steps: readonly { plan: Plan; tenant: OpenTenant }[]): Promise<SavedTenantCheck[]> {
  const limit = pLimit(TENANTS_AT_ONCE);
  return Promise.all(
    steps.map(({ plan, tenant }) => limit(async (): Promise<SavedTenantCheck> => {
      const name = plan.tenant.name;
      try {
        return { name, reasons: await checkSavedPlan(plan, tenant) };
      } catch (error) {
        if (!isTenantFailure(error)) throw error;
        return { name, reasons: [], failure: error };
      }
    })),
  );
}

/** A saved plan of several refused whole: what to print, and how each tenant ended (`status` and `code` per tenant; the others not attempted). */
export interface SavedTenantsRefusal {
  message: string;
  ends: { plan: Plan; status: 'refused' | 'failed'; code: number; reasons: string[] }[];
  notAttempted: string[];
  /** A tenant that could not be asked is an error (exit 1) before a refusal (exit 4), as for one tenant. */
  code: number;
}

/**
 * Why saved plan `planFile` of `plans` is refused whole, nothing sent anywhere: the reasons of
 * the whole file (`whole`), then each tenant's (`checks`, in the order of `plans`). Each tenant
 * not ready is refused (or failed, when it could not be asked) with its own reasons only.
 */
export function savedTenantsRefusal(planFile: string, plans: readonly Plan[], whole: readonly string[], checks: readonly SavedTenantCheck[]): SavedTenantsRefusal {
  const lines = [...whole, ...checks.flatMap((c) => [...c.reasons, ...(c.failure === undefined ? [] : [c.failure.message])].map((r) => `tenant ${c.name}: ${r}`))];
  const remake = whole.length > 0 || checks.some((c) => c.reasons.length > 0);
  const fix = remake ? [`Make a new plan: roleflow plan ${plans.map((p) => `--tenant ${showName(p.tenant.name)}`).join(' ')} --out FILE`] : [];
  const message = [`error: the saved plan ${safeText(planFile)} is refused; nothing was applied to any tenant:`, ...lines.map((r) => `  - ${r}`), ...fix].join('\n');
  const ends: SavedTenantsRefusal['ends'] = [];
  const notAttempted: string[] = [];
  for (const [i, plan] of plans.entries()) {
    const { reasons, failure } = checks[i]!;
    if (failure !== undefined) ends.push({ plan, status: 'failed', code: failure.exitCode, reasons: [failure.message] });
    else if (whole.length > 0 || reasons.length > 0) ends.push({ plan, status: 'refused', code: ExitCode.Refused, reasons: [...whole, ...reasons] });
    else notAttempted.push(plan.tenant.name);
  }
  return { message, ends, notAttempted, code: ends.find((e) => e.status === 'failed')?.code ?? ExitCode.Refused };
}
