import type { Config } from '../../core/config/config.js';
import { planSummaryLine, savedPlanRefusals, tenantPlansDigest, type Plan, type TenantPlans } from '../../core/plan/index.js';
import { showName } from '../../core/roles/display.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { openSavedPlan } from './saved-plan.js';
import { ExitCode, type Ports } from '../ports.js';
import { applyTenantsInOrder, checkSavedTenants, savedTenantsRefusal, type SavedTenantCheck } from '../tenants/apply-tenants.js';
import { openTenants } from '../tenants/open.js';
import { carryOutPlan, ended, finishApply, tenantHeading, tenantTurn, type ApplyFlags, type TenantApplyEnd } from './applying.js';

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
  const checked = await openSavedPlan({ cwd: ports.cwd, planFile, config, plan, open });
  if ('refused' in checked) {
    const { what, reasons, otherTenant } = checked.refused;
    const tenant = showName(plan.tenant.name);
    const fix = otherTenant
      ? `It names its tenant: roleflow apply ${planFile} --tenant ${tenant} (or without --tenant and ROLEFLOW_TENANT) applies it there.`
      : `Make a new plan: roleflow plan --tenant ${tenant} --out FILE (if roleflow promote made this one, run roleflow promote again: a plan made by plan skips its gate)`;
    const where = several ? ` (tenant ${plan.tenant.name})` : '';
    output.err([`error: the saved plan ${planFile}${where} ${what}; nothing was applied${several ? ` to ${plan.tenant.name}` : ''}:`, ...reasons.map((r) => `  - ${r}`), fix].join('\n'));
    return ended(ExitCode.Refused, plan, 'refused', [], reasons);
  }
  if (!flags.json) output.out(`Applying the saved plan ${planFile}${several ? '' : ` to tenant ${checked.plan.tenant.name}`}. ${planSummaryLine(checked.plan)}`);
  return carryOutPlan(ports, checked.plan, checked.tenant, flags, several);
}
