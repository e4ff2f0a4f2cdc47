import { Option } from 'clipanion';
import { showName } from '../../core/roles/display.js';
import type { Config } from '../../core/config.js';
import type { Result } from '../../core/errors.js';
import type { RoleFile } from '../../core/roles/index.js';
import type { SourceDir } from '../../files/source-files.js';
import type { FreshPlan } from '../../run/plan.js';
import type { TenantPlanning } from '../../run/tenants/plan-tenants.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { ManyTenantsCommand, type TenantAccessCommand } from '../tenant-command.js';

/** The options that choose the role files and how they are planned. */
export interface RoleSelection {
  roles: string | undefined;
  prune: boolean | undefined;
  allowEmptyPrune: boolean;
  targets: readonly string[];
  /** Role files given as arguments: their Roles join the targets. */
  roleFiles: readonly string[];
  /** `--allow RULE[:ROLE][@FP]`: overrides of plan policy error findings. */
  allows?: readonly string[];
}

/**
 * Read the role files, list tenant `name` once (the command's own when undefined), plan. `plan`,
 * `apply` and `promote` plan one tenant with it; a run over several calls it once per tenant.
 */
export async function freshPlanFor(
  command: TenantAccessCommand,
  config: Config,
  selection: RoleSelection,
  open: () => Promise<OpenTenant>,
  /** The role files of `rolesDir` already being read: a run over several tenants reads them once. */
  shared?: { rolesDir: SourceDir; files: Promise<Result<RoleFile[]>> },
): Promise<FreshPlan & { rolesDir: SourceDir }> {
  const { rolesDirOf } = await import('../../files/role-files.js');
  const { makeFreshPlan } = await import('../../run/plan.js');
  const rolesDir = shared?.rolesDir ?? rolesDirOf(command.context.cwd, config, selection.roles);
  const { parseAllows } = await import('../../run/policy-flags.js');
  const fresh = await makeFreshPlan({
    env: command.context.env,
    allows: parseAllows(selection.allows ?? []),
    ...(shared && { files: shared.files }),
    cwd: command.context.cwd,
    config,
    rolesDir,
    prune: selection.prune,
    allowEmptyPrune: selection.allowEmptyPrune,
    open,
    now: new Date(),
    targets: selection.targets,
    roleFiles: selection.roleFiles,
  });
  // On stderr, once per run however many tenants are planned: the exit code is unchanged.
  const { formatIssue } = await import('../../core/errors.js');
  const shown = warned.get(command) ?? new Set<string>();
  warned.set(command, shown);
  for (const line of fresh.warnings.map(formatIssue)) {
    if (shown.has(line)) continue;
    shown.add(line);
    command.io.err(line);
  }
  return { ...fresh, rolesDir };
}

/** The warnings each command has printed. */
const warned = new WeakMap<object, Set<string>>();

/** What `plan` and `apply` share: the options that choose the role files, and a fresh plan of them. */
export abstract class PlanningCommand extends ManyTenantsCommand {
  target = Option.Array('--target', { description: 'Only the Roles with this name or glob (repeatable): a partial plan' });
  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  prune = Option.Boolean('--prune', { description: 'Delete remote Roles that have no role file (--no-prune overrides the config)' });
  allowEmptyPrune = Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when there are no role files at all' });
  allow = Option.Array('--allow', { description: 'Override an error finding of policy.plan: RULE, RULE:ROLE or RULE:ROLE@FINGERPRINT (repeatable; never a hard one)' });

  /** Read the role files, list the tenant (`tenant`, else the flags' one) once, plan; `roleFiles` (arguments) join the targets. */
  protected async freshPlanOf(config: Config, roleFiles: readonly string[], tenant?: string): Promise<FreshPlan & { rolesDir: SourceDir }> {
    const selection = { roles: this.roles, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune, targets: this.target ?? [], roleFiles, allows: this.allow ?? [] };
    return freshPlanFor(this, config, selection, () => this.openTenant(config, tenant));
  }

  /**
   * A fresh plan of each of `names`, in the order of `names`: every tenant opened first (an unknown
   * one or a missing token stops the run before anything is sent), then listed in parallel (a few
   * at once). A tenant that cannot be listed gets its error instead of a plan.
   */
  protected async freshPlansOf(config: Config, roleFiles: readonly string[], names: readonly string[]): Promise<TenantPlanning<FreshPlan & { rolesDir: SourceDir }>[]> {
    const { planTenants } = await import('../../run/tenants/plan-tenants.js');
    const { loadRoleFiles, rolesDirOf } = await import('../../files/role-files.js');
    const opened = await this.openTenants(config, names);
    const selection = { roles: this.roles, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune, targets: this.target ?? [], roleFiles, allows: this.allow ?? [] };
    const rolesDir = rolesDirOf(this.context.cwd, config, this.roles);
    const shared = { rolesDir, files: loadRoleFiles(this.context.cwd, rolesDir) };
    const planned = await planTenants(names, (name) => freshPlanFor(this, config, selection, () => Promise.resolve(opened[names.indexOf(name)]!), shared));
    return planned.map((entry, i) => ('error' in entry ? { ...entry, location: opened[i]!.location } : entry));
  }
}

/** Why `apply`'s arguments do not go together (one line), or undefined when they do. */
export function applyArgumentProblem(
  args: readonly string[],
  planFile: string | undefined,
  flags: { target: readonly string[] | undefined; roles: string | undefined; prune: boolean | undefined; allowEmptyPrune: boolean; allTenants: boolean },
): string | undefined {
  const notRoleFiles = args.filter((a) => !a.endsWith('.md'));
  if (args.length > 1 && notRoleFiles.length > 0) return `apply takes one saved plan or role files (*.md), not ${notRoleFiles.join(', ')} among several`;
  if (planFile === undefined) return undefined;
  if (flags.target !== undefined) return '--target does not go with a saved plan: make a partial plan with roleflow plan --target … --out FILE';
  const given = [flags.roles !== undefined && '--roles', flags.prune !== undefined && (flags.prune ? '--prune' : '--no-prune')].filter((f) => f !== false);
  if (given.length > 0) return `${given.join(' and ')} ${given.length === 1 ? 'does' : 'do'} not go with a saved plan: it already says what to do`;
  if (flags.allowEmptyPrune) return '--allow-empty-prune does not go with a saved plan: it already says what to do';
  if (flags.allTenants) return '--all-tenants does not go with a saved plan: it applies the tenants it was made for, in order';
  return undefined;
}

/**
 * Why the tenant flags do not go with saved plan `planFile` of `tenants` (one line), or undefined.
 * A plan of several applies all its tenants in order, each where it was planned: `--tenant` (or
 * `ROLEFLOW_TENANT`, `envTenant`), `--base-url` and `--ws-url` would choose or move one, so they are refused, even naming some
 * of its tenants. A plan of one takes one `--tenant`; a tenant other than its own is refused when
 * the plan is checked against it (exit 4, with the reason).
 */
export function savedPlanTenantProblem(
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
