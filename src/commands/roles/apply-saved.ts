import { safeText } from '../../core/safe-text.js';
import type { Config } from '../../core/config.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { Plan, TenantPlans } from '../../core/plan/index.js';
import { showName } from '../../core/roles/display.js';
import type { SavedTenantCheck } from '../../run/tenants/apply-tenants.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import type { TenantCommand } from '../tenant-command.js';
import { carryOutPlan, ended, tenantTurn, type ApplyFlags, type TenantApplyEnd } from './applying.js';

/** `roleflow apply PLANFILE`: what the command lends the saved plan's path. */
export interface SavedPlanApplier extends TenantCommand {
  /** A tenant's `=== tenant NAME ===` heading, in a run over several. */
  tenantHeading(name: string): void;
  /** The run's exit code, after its closing line and `--json`'s document. */
  finish(ends: readonly TenantApplyEnd[], several: { notAttempted: readonly string[] } | undefined): Promise<number>;
}

/**
 * A saved plan of several tenants: refused whole (nothing sent anywhere) when the document or
 * any tenant's plan was altered or today's guards refuse one; every tenant's config and token
 * resolved (an unknown tenant or a missing token: exit 1, nothing sent); then every tenant
 * checked read-only (its base URL, one list: the token, and whether its planned Roles changed
 * since) — any not ready refuses the whole file, every tenant's reasons named, nothing applied
 * anywhere; then tenant by tenant in order, each checked again just before its turn (`apply
 * PLANFILE` of one), stopping at the first that is refused or fails.
 */
export async function applySavedTenants(command: SavedPlanApplier, config: Config, planFile: string, saved: TenantPlans, flags: ApplyFlags): Promise<number> {
  const { savedPlanRefusals, tenantPlansDigest } = await import('../../core/plan/index.js');
  const { roles } = config;
  const altered = saved.digest === tenantPlansDigest(saved.tenants) ? [] : ['its tenants were removed, added or reordered since `roleflow plan --out` wrote it: its digest does not match'];
  const guarded = saved.tenants.map((plan) => ({ name: plan.tenant.name, reasons: savedPlanRefusals(plan, { protect: roles.protect, maxDeletes: roles.maxDeletes, allowEmptyPrune: roles.allowEmptyPrune }) }));
  if (altered.length > 0 || guarded.some((c) => c.reasons.length > 0)) return refuseSavedTenants(command, planFile, saved, altered, guarded);
  const opened = await command.openTenants(config, saved.tenants.map((p) => p.tenant.name));
  const steps = saved.tenants.map((plan, i) => ({ plan, tenant: opened[i]! }));
  const { applyTenantsInOrder, checkSavedTenants } = await import('../../run/tenants/apply-tenants.js');
  const closeAll = () => Promise.all(opened.map((t) => t.close().catch(() => undefined)));
  const checks = await checkSavedTenants(steps).catch(async (error: unknown) => {
    await closeAll();
    throw error;
  });
  if (checks.some((c) => c.reasons.length > 0 || c.failure !== undefined)) {
    await closeAll();
    return refuseSavedTenants(command, planFile, saved, [], checks);
  }
  const run = await applyTenantsInOrder(steps, (s) => s.plan.tenant.name, ({ plan, tenant }) => {
    command.tenantHeading(plan.tenant.name);
    return tenantTurn(command, plan, () => applySaved(command, config, planFile, plan, flags, tenant));
  });
  return command.finish(run.ended, run);
}

/** A saved plan of several refused whole, nothing sent anywhere (`savedTenantsRefusal`). */
async function refuseSavedTenants(command: SavedPlanApplier, planFile: string, saved: TenantPlans, whole: readonly string[], checks: readonly SavedTenantCheck[]): Promise<number> {
  const { savedTenantsRefusal } = await import('../../run/tenants/apply-tenants.js');
  const refusal = savedTenantsRefusal(planFile, saved.tenants, whole, checks);
  command.io.err(refusal.message);
  await command.finish(refusal.ends.map((e) => ended(e.code, e.plan, e.status, [], e.reasons)), { notAttempted: refusal.notAttempted });
  return refusal.code;
}

/**
 * One tenant's saved plan, checked against the tenant and carried out. The tenant: `opened` (a
 * saved plan of several), else the one the flags or ROLEFLOW_TENANT name, else the plan's own.
 */
export async function applySaved(command: SavedPlanApplier, config: Config, planFile: string, plan: Plan, flags: ApplyFlags, opened?: OpenTenant): Promise<TenantApplyEnd> {
  const { openSavedPlan } = await import('../../run/plan.js');
  const open = () => (opened === undefined ? command.openTenant(config, command.tenant ?? plan.tenant.name) : Promise.resolve(opened));
  const checked = await openSavedPlan({ cwd: command.context.cwd, planFile, config, plan, open });
  const several = opened !== undefined;
  if ('refused' in checked) {
    const { what, reasons, otherTenant } = checked.refused;
    const tenant = showName(plan.tenant.name);
    const fix = otherTenant
      ? `It names its tenant: roleflow apply ${safeText(planFile)} --tenant ${tenant} (or without --tenant and ROLEFLOW_TENANT) applies it there.`
      : `Make a new plan: roleflow plan --tenant ${tenant} --out FILE (if roleflow promote made this one, run roleflow promote again: a plan made by plan skips its gate)`;
    const where = several ? ` (tenant ${plan.tenant.name})` : '';
    command.io.err([`error: the saved plan ${safeText(planFile)}${where} ${what}; nothing was applied${several ? ` to ${plan.tenant.name}` : ''}:`, ...reasons.map((r) => `  - ${r}`), fix].join('\n'));
    return ended(ExitCode.Refused, plan, 'refused', [], reasons);
  }
  const { planSummaryLine } = await import('../../core/plan/index.js');
  if (!flags.json) command.io.out(`Applying the saved plan ${safeText(planFile)}${several ? '' : ` to tenant ${checked.plan.tenant.name}`}. ${planSummaryLine(checked.plan)}`);
  return carryOutPlan(command, checked.plan, checked.tenant, flags, several);
}
