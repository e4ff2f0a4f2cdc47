import { tenantNameOf } from '../../tenant/open-tenant.js';
import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import * as plans from '../../core/plan/index.js';
import type { Plan, PlanOptions as ComputeOptions, TenantPlanEntry } from '../../core/plan/index.js';
import { shownUrl } from '../../core/text/printed-url.js';
import { quote } from '../../core/roles/display.js';
import { tenantError } from '../../core/tenants/index.js';
import { planNotSavedLine, savePlan } from '../../files/plan-file.js';
import { secretScanner } from '../../core/config/policy/index.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { oneTenant, openOneTenant, severalTenants, type ManyTenantsOptions } from '../tenants.js';
import { planner, type RoleSelection } from './planning.js';
import { safeText } from '../../core/text/safe-text.js';

export interface PlanOptions extends CommonOptions, ManyTenantsOptions, RoleSelection {
  /** `--out FILE`: the plan saved for `apply FILE`. */
  out?: string | undefined;
  json: boolean;
  format?: 'text' | 'json' | 'markdown' | undefined;
  detailedExitcode: boolean;
}

type Format = 'text' | 'json' | 'markdown';

/**
 * `roleflow plan`: the role files against the tenant (or each of several), shown as text,
 * markdown or JSON, and saved with `--out`. Exit 4 when guards refuse it, 2 with
 * `--detailed-exitcode` when it has changes.
 */
export async function plan(options: PlanOptions, ports: Ports): Promise<number> {
  if (options.json && options.format !== undefined && options.format !== 'json') {
    throw new RoleflowError(`--json and --format ${options.format} ask for different outputs: use one of them`);
  }
  if (options.out === '-') throw new RoleflowError('--out -: a saved plan must be a file; use --json to print the plan on stdout');
  const format: Format = options.json ? 'json' : (options.format ?? 'text');
  const config = await configOf(options, ports);
  const several = await severalTenants(config, options);
  if (several !== undefined) return planSeveral(options, ports, config, several, format);
  const { output } = ports;
  // Secrets are masked in the plan's values, then it is serialised: never masked as text, which
  // could turn a key that holds a short secret into something no program reads.
  const show = (plan: Plan, rolesDir: string): void => {
    if (format === 'json') output.dataBytes(plan, (p, redactor) => plans.planJsonBytes(p, { redactor }));
    else if (format === 'markdown') output.out(plans.renderPlanMarkdown(plan));
    else output.out(plans.renderPlanText(plan, { color: output.color('stdout'), rolesDir }));
  };
  let fresh;
  try {
    fresh = await planner(config, options, ports).one(() => openOneTenant(ports, config, options, 'plan'));
  } catch (error) {
    // Role files that cannot be read: JSON and markdown readers get the problems in their format too.
    if (error instanceof InvalidFilesError && format !== 'text') show(plans.unreadablePlan(error.issues, unreadableOptions(options, ports, config)), '');
    throw error;
  }
  const { plan, tenant, rolesDir } = fresh;
  await tenant.close();
  if (plan.issues.length > 0) {
    if (format !== 'text') show(plan, '');
    throw new InvalidFilesError(plan.issues);
  }
  show(plan, `${rolesDir.display}/`);
  if (plan.guards.length > 0) {
    for (const guard of plan.guards) output.err(`error: ${guard.message}`);
    await notSaved(options, ports, 'guards refuse it');
    return ExitCode.Refused;
  }
  if (options.out !== undefined) {
    await savePlan(resolve(ports.cwd, options.out), plan, secretScanner(ports.env, config));
    // A plan of a tenant given by --base-url/--ws-url goes there only when told again.
    const where = [options.baseUrl !== undefined && ` --base-url ${shownUrl(options.baseUrl)}`, options.wsUrl !== undefined && ` --ws-url ${shownUrl(options.wsUrl)}`].filter((f) => f !== false).join('');
    output.err(`Saved the plan to ${safeText(options.out)}. To carry out exactly this plan: roleflow apply ${safeText(options.out)}${where}`);
  }
  return options.detailedExitcode && plans.planHasChanges(plan) ? ExitCode.Changes : ExitCode.Ok;
}

/**
 * A run over several tenants: each planned as one is (listed a few at once), shown as one
 * document — a section per tenant, one markdown comment, one JSON document — and saved as one
 * plan that `apply` carries out tenant by tenant. A tenant that cannot be listed does not hide
 * the others: its entry says why, and the run exits 1 without saving.
 */
async function planSeveral(options: PlanOptions, ports: Ports, config: Config, names: string[], format: Format): Promise<number> {
  const { output } = ports;
  const show = (list: TenantPlanEntry[], rolesDir: string): void => {
    if (format === 'json') output.data(list, plans.renderTenantPlansJson);
    else if (format === 'markdown') output.out(plans.renderTenantPlansMarkdown(list));
    else output.out(plans.renderTenantPlansText(list, { color: output.color('stdout'), rolesDir }));
  };
  let fresh;
  try {
    fresh = await planner(config, options, ports).several(names);
  } catch (error) {
    if (error instanceof InvalidFilesError && format !== 'text') show(names.map((n) => plans.unreadablePlan(error.issues, unreadableOptions(options, ports, config, n))), '');
    throw error;
  }
  const list: TenantPlanEntry[] = [];
  const failed: string[] = [];
  let rolesDir = '';
  for (const entry of fresh) {
    if ('fresh' in entry) {
      await entry.fresh.tenant.close();
      list.push(entry.fresh.plan);
      rolesDir = `${entry.fresh.rolesDir.display}/`;
      continue;
    }
    const baseUrl = plans.planBaseUrl(entry.location ?? config.tenants[entry.name]?.baseUrl ?? '');
    list.push({ tenant: { name: entry.name, base_url: baseUrl }, error: { code: entry.error.code, message: entry.error.message } });
    failed.push(`error: ${tenantError(entry.name, entry.error).message}`);
  }
  const issues = [...new Map(list.flatMap((p) => ('issues' in p ? p.issues : [])).map((i) => [JSON.stringify(i), i])).values()];
  if (issues.length > 0) {
    if (format !== 'text') show(list, '');
    throw new InvalidFilesError(issues);
  }
  show(list, rolesDir);
  if (failed.length > 0) {
    output.err(failed.join('\n'));
    await notSaved(options, ports, `${failed.length === 1 ? 'a tenant was' : `${failed.length} tenants were`} not planned`);
    return ExitCode.Error;
  }
  const planned = list.filter((p): p is Plan => !plans.isTenantPlanError(p));
  const refused = planned.filter((p) => p.guards.length > 0);
  if (refused.length > 0) {
    for (const plan of refused) for (const guard of plan.guards) output.err(`error: tenant ${quote(plan.tenant.name)}: ${guard.message}`);
    await notSaved(options, ports, 'guards refuse it');
    return ExitCode.Refused;
  }
  if (options.out !== undefined) {
    await savePlan(resolve(ports.cwd, options.out), planned, secretScanner(ports.env, config));
    const what = planned.length === 1 ? `tenant ${planned[0]!.tenant.name}` : `${planned.length} tenants`;
    output.err(`Saved the plan of ${what} to ${safeText(options.out)}. To carry it out${planned.length === 1 ? '' : ', tenant by tenant in this order'}: roleflow apply ${safeText(options.out)}`);
  }
  return options.detailedExitcode && planned.some(plans.planHasChanges) ? ExitCode.Changes : ExitCode.Ok;
}

/** With `--out`: the plan was not saved, and why (an older file of that name is named as not this plan). */
async function notSaved(options: PlanOptions, ports: Ports, why: string): Promise<void> {
  if (options.out === undefined) return;
  ports.output.err(await planNotSavedLine(resolve(ports.cwd, options.out), safeText(options.out), why));
}

/** The options of a plan that could not be made, for the tenant this run would have asked. */
function unreadableOptions(options: PlanOptions, ports: Ports, config: Config, tenant?: string): Pick<ComputeOptions, 'prune' | 'protect' | 'ignore' | 'tenant'> {
  const name = tenant ?? tenantNameOf(config, { tenant: oneTenant(options, ports, 'plan'), baseUrl: options.baseUrl });
  const baseUrl = options.baseUrl ?? config.tenants[name]?.baseUrl ?? '';
  const { roles } = config;
  return { prune: options.prune ?? roles.prune, protect: roles.protect, ignore: roles.ignore, tenant: { name, baseUrl } };
}
