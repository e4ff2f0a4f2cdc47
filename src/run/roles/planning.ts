import type { Config } from '../../core/config/config.js';
import { formatIssue } from '../../core/errors.js';
import { loadRoleFiles, rolesDirOf } from '../../files/role-files.js';
import type { SourceDir } from '../../files/source-files.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { makeFreshPlan, type FreshPlan } from './fresh-plan.js';
import type { Ports } from '../ports.js';
import { planTenants, type TenantPlanning } from '../several-tenants.js';
import { openTenants } from '../tenants.js';

/** The options that choose the role files and how they are planned. */
export interface RoleSelection {
  /** `--roles DIR`, when not the config's folder. */
  roles?: string | undefined;
  /** `--prune` / `--no-prune`; undefined: the config's. */
  prune?: boolean | undefined;
  allowEmptyPrune?: boolean;
  /** `--target NAME_OR_GLOB`. */
  targets?: readonly string[] | undefined;
  /** Role files given as arguments: their Roles join the targets. */
  roleFiles?: readonly string[];
}

export type PlannedTenant = FreshPlan & { rolesDir: SourceDir };

/** Fresh plans of the role files `selection` chooses: one tenant's, or each of several. */
export interface Planner {
  /** Read the role files, list the tenant `open` gives once, plan (`plan`, `apply`, `promote` of one tenant). */
  one(open: () => Promise<OpenTenant>): Promise<PlannedTenant>;
  /**
   * A fresh plan of each of `names`, in the order of `names`: every tenant opened first (an unknown
   * one or a missing token stops the run before anything is sent), then listed a few at once, the
   * role files read once. A tenant that cannot be listed gets its error instead of a plan.
   */
  several(names: readonly string[]): Promise<TenantPlanning<PlannedTenant>[]>;
}

/**
 * The planner of one command run. The role files' warnings (`tenants:` naming no tenant…) go to
 * stderr once per run however many tenants are planned: the exit code is unchanged.
 */
export function planner(config: Config, selection: RoleSelection, ports: Ports): Planner {
  const shown = new Set<string>();
  const rolesDir = rolesDirOf(ports.cwd, config, selection.roles);
  const planFor = async (open: () => Promise<OpenTenant>, files?: ReturnType<typeof loadRoleFiles>): Promise<PlannedTenant> => {
    const fresh = await makeFreshPlan({
      ...(files && { files }),
      cwd: ports.cwd,
      config,
      rolesDir,
      prune: selection.prune,
      allowEmptyPrune: selection.allowEmptyPrune === true,
      open,
      now: ports.clock.now(),
      targets: selection.targets ?? [],
      roleFiles: selection.roleFiles ?? [],
    });
    for (const line of fresh.warnings.map(formatIssue)) {
      if (shown.has(line)) continue;
      shown.add(line);
      ports.output.err(line);
    }
    return { ...fresh, rolesDir };
  };
  return {
    one: (open) => planFor(open),
    async several(names) {
      const opened = await openTenants(ports, config, names);
      const files = loadRoleFiles(ports.cwd, rolesDir);
      const planned = await planTenants(names, (name) => planFor(() => Promise.resolve(opened[names.indexOf(name)]!), files));
      return planned.map((entry, i) => ('error' in entry ? { ...entry, location: opened[i]!.location } : entry));
    },
  };
}
