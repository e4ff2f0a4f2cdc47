import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { renderPlanText, renderTenantPlansText } from '../../core/plan/index.js';
import { showName } from '../../core/roles/display.js';
import { tenantError } from '../../core/tenants/index.js';
import { savedPlanUnknownTenant } from '../../core/tenants/select.js';
import { readSavedPlanFile } from '../../files/plan-file.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { applyTenantsInOrder } from '../several-tenants.js';
import { oneTenant, openOneTenant, severalTenants, type ManyTenantsOptions } from '../tenants.js';
import { applySaved, applySavedTenants } from './apply-saved.js';
import { approveFreshPlans, carryOutPlan, finishApply, tenantHeading, tenantTurn, type ApplyFlags } from './applying.js';
import { planner, type Planner, type RoleSelection } from './planning.js';

export interface ApplyOptions extends CommonOptions, ManyTenantsOptions, Omit<RoleSelection, 'roleFiles'> {
  /** PLANFILE, or role files (`*.md`) whose Roles are the targets. */
  args: readonly string[];
  autoApprove: boolean;
  concurrency?: number | undefined;
  json: boolean;
}

/**
 * `roleflow apply`: a fresh plan shown and approved, then carried out (on one tenant, or tenant by
 * tenant over several), or a saved plan (`PLANFILE`) checked against its tenants and carried out.
 */
export async function apply(options: ApplyOptions, ports: Ports): Promise<number> {
  const { args } = options;
  const planFile = args.length === 1 && !args[0]!.endsWith('.md') ? args[0] : undefined;
  const problem = applyArgumentProblem(args, planFile, options);
  if (problem !== undefined) throw new RoleflowError(problem, 'usage');
  const config = await configOf(options, ports);
  const flags: ApplyFlags = { json: options.json, autoApprove: options.autoApprove, concurrency: options.concurrency ?? config.roles.concurrency, protect: config.roles.protect, allow: options.allow, journal: { config, command: 'apply' } };
  if (planFile !== undefined) return applyPlanFile(options, ports, config, planFile, flags);
  const several = await severalTenants(config, options);
  const selection = { ...options, roleFiles: args };
  if (several !== undefined) return applyFreshTenants(ports, planner(config, selection, ports), several, flags);
  const fresh = await planner(config, selection, ports).one(() => openOneTenant(ports, config, options, 'apply'));
  const { plan, rolesDir } = fresh;
  if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
  const shown = renderPlanText(plan, { color: ports.output.color(options.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
  const approved = await approveFreshPlans(ports, [plan], shown, flags);
  // Nothing to do goes through too: the journal learns the state the tenant was found in.
  if (approved !== 'approved' && approved[0]?.status !== 'no_changes') return finishApply(ports, approved, undefined, options.json);
  return finishApply(ports, [await carryOutPlan(ports, plan, fresh.tenant, flags, false, fresh.remote)], undefined, options.json);
}

/** `apply PLANFILE`: a saved plan of one tenant, or of several (tenant by tenant). */
async function applyPlanFile(options: ApplyOptions, ports: Ports, config: Config, planFile: string, flags: ApplyFlags): Promise<number> {
  const saved = await readSavedPlanFile(resolve(ports.cwd, planFile), planFile);
  const tenants = 'tenants' in saved ? saved.tenants.map((p) => p.tenant.name) : [saved.tenant.name];
  const tenantProblem = savedPlanTenantProblem(planFile, tenants, { tenant: options.tenants, envTenant: ports.env['ROLEFLOW_TENANT'] || undefined, baseUrl: options.baseUrl, wsUrl: options.wsUrl });
  if (tenantProblem !== undefined) throw new RoleflowError(tenantProblem, 'usage');
  const tenant = oneTenant(options, ports, 'apply');
  const gone = savedPlanUnknownTenant(planFile, 'tenants' in saved || (tenant === undefined && options.baseUrl === undefined) ? tenants : [], config);
  if (gone !== undefined) throw new RoleflowError(gone, 'config');
  if ('tenants' in saved) return applySavedTenants(ports, config, planFile, saved, flags);
  // The tenant the flags or ROLEFLOW_TENANT name, else the plan's own.
  const open = () => openOneTenant(ports, config, options, 'apply', tenant ?? saved.tenant.name);
  return finishApply(ports, [await applySaved(ports, config, planFile, saved, flags, open)], undefined, flags.json);
}

/**
 * Several tenants, planned fresh: every tenant opened and listed first (one that cannot be stops
 * the run, nothing applied anywhere), shown, approved once, then carried out one tenant at a time.
 */
async function applyFreshTenants(ports: Ports, plans: Planner, names: string[], flags: ApplyFlags): Promise<number> {
  const planned = await plans.several(names);
  const fresh = planned.flatMap((e) => ('fresh' in e ? [e.fresh] : []));
  const failed = planned.flatMap((e) => ('error' in e ? [tenantError(e.name, e.error)] : []));
  if (failed.length > 0) {
    ports.output.err([...failed.map((e) => `error: ${e.message}`), 'Nothing was applied to any tenant.'].join('\n'));
    return ExitCode.Error;
  }
  const list = fresh.map((f) => f.plan);
  const issues = [...new Map(list.flatMap((p) => p.issues).map((i) => [JSON.stringify(i), i])).values()];
  if (issues.length > 0) throw new InvalidFilesError(issues);
  const shown = renderTenantPlansText(list, { color: ports.output.color(flags.json ? 'stderr' : 'stdout'), rolesDir: `${fresh[0]!.rolesDir.display}/` });
  const approved = await approveFreshPlans(ports, list, shown, flags);
  // Guards refusing some tenants: those are refused, the others not attempted.
  if (approved !== 'approved') {
    // Nothing to do anywhere: each tenant's journal still learns the state it was found in.
    const ends = [];
    if (approved.every((e) => e.status === 'no_changes')) for (const f of fresh) ends.push(await carryOutPlan(ports, f.plan, f.tenant, flags, true, f.remote));
    return finishApply(ports, ends.length > 0 ? ends : approved, { notAttempted: list.filter((p) => !approved.some((e) => e.plan === p)).map((p) => p.tenant.name) }, flags.json);
  }
  const run = await applyTenantsInOrder(fresh, (f) => f.plan.tenant.name, async (f) => {
    tenantHeading(ports, f.plan.tenant.name, flags.json);
    if (f.plan.changes.length === 0 && !flags.json) ports.output.out('No changes.');
    return tenantTurn(ports, f.plan, () => carryOutPlan(ports, f.plan, f.tenant, flags, true, f.remote));
  });
  return finishApply(ports, run.ended, run, flags.json);
}

/** Why `apply`'s arguments do not go together (one line), or undefined when they do. */
function applyArgumentProblem(args: readonly string[], planFile: string | undefined, options: ApplyOptions): string | undefined {
  const notRoleFiles = args.filter((a) => !a.endsWith('.md'));
  if (args.length > 1 && notRoleFiles.length > 0) return `apply takes one saved plan or role files (*.md), not ${notRoleFiles.join(', ')} among several`;
  if (planFile === undefined) return undefined;
  if (options.targets !== undefined) return '--target does not go with a saved plan: make a partial plan with roleflow plan --target … --out FILE';
  const given = [options.roles !== undefined && '--roles', options.prune !== undefined && (options.prune ? '--prune' : '--no-prune')].filter((f) => f !== false);
  if (given.length > 0) return `${given.join(' and ')} ${given.length === 1 ? 'does' : 'do'} not go with a saved plan: it already says what to do`;
  if (options.allowEmptyPrune === true) return '--allow-empty-prune does not go with a saved plan: it already says what to do';
  if (options.allTenants === true) return '--all-tenants does not go with a saved plan: it applies the tenants it was made for, in order';
  return undefined;
}

/**
 * Why the tenant flags do not go with saved plan `planFile` of `tenants` (one line), or undefined.
 * A plan of several applies all its tenants in order, each where it was planned: `--tenant` (or
 * `ROLEFLOW_TENANT`, `envTenant`), `--base-url` and `--ws-url` would choose or move one, so they are refused, even naming some
 * of its tenants. A plan of one takes one `--tenant`; a tenant other than its own is refused when
 * the plan is checked against it (exit 4, with the reason).
 */
function savedPlanTenantProblem(
  planFile: string,
  tenants: readonly string[],
  flags: { tenant: readonly string[] | undefined; envTenant: string | undefined; baseUrl: string | undefined; wsUrl: string | undefined },
): string | undefined {
  const names = tenants.map((name) => showName(name)).join(', ');
  if (tenants.length === 1) {
    const named = new Set(flags.tenant ?? []);
    return named.size > 1 ? `--tenant more than once does not go with ${planFile}, a saved plan of tenant ${names}: it applies to that tenant only` : undefined;
  }
  const given = [flags.tenant !== undefined && '--tenant', flags.tenant === undefined && flags.envTenant !== undefined && 'ROLEFLOW_TENANT', flags.baseUrl !== undefined && '--base-url', flags.wsUrl !== undefined && '--ws-url'].filter((f) => f !== false);
  if (given.length === 0) return undefined;
  return `${given.join(', ')} ${given.length === 1 ? 'does' : 'do'} not go with ${planFile}, a saved plan of ${tenants.length} tenants: it applies all of them (${names}) in order, each where it was planned; for fewer, make a plan of those: roleflow plan --tenant NAME --out FILE`;
}
