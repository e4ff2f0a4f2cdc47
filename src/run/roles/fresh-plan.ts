import { resolve } from 'node:path';
import { tenantVars, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError, type Issue, type Result } from '../../core/errors.js';
import type { Role } from '../../core/model.js';
import { computePlan, type Plan } from '../../core/plan/index.js';
import { membershipNotes, roleFilesForTenant, unmatchedTenantWarnings, type RoleFile } from '../../core/roles/index.js';
import { renderedSecretIssues, roleSecretIssues, secretScanner, type Allow } from '../../core/config/policy/index.js';
import { loadRoleFiles, strayRoleFiles } from '../../files/role-files.js';
import { withPolicy } from '../policy/plan-policy.js';
import { displayPath, type SourceDir } from '../../files/source-files.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';

/** The tenant as a plan records it (see `OpenTenant.location`). */
export function planTenantOf(tenant: OpenTenant): { name: string; baseUrl: string } {
  return { name: tenant.target.name, baseUrl: tenant.location };
}

export interface FreshPlan {
  plan: Plan;
  tenant: OpenTenant;
  /** Warnings about the role files (a Role written as YAML, `tenants:` naming no tenant, `tenants: []`): the same for every tenant. */
  warnings: Issue[];
  /** The tenant's Roles as listed for the plan. */
  remote: Role[];
  /** The role files of the tenant as it gets them (its `tenants:` membership, its vars): the plan's desired state. */
  desired: RoleFile[];
}

/**
 * Read every role file (stopping with all their problems before anything is sent), then list the
 * tenant once and compute the plan. The caller closes `tenant`; the same client then applies,
 * which lets creates tell a lost answer from a Role that was never made.
 */
export async function makeFreshPlan(opts: {
  cwd: string;
  config: Config;
  rolesDir: SourceDir;
  prune: boolean | undefined;
  /** `--allow-empty-prune`; the config's `roles.allow_empty_prune` allows it too. */
  allowEmptyPrune: boolean;
  open: () => Promise<OpenTenant>;
  now: Date;
  /** `--target NAME_OR_GLOB`: a partial plan of the Roles these match. */
  targets?: readonly string[];
  /** Role files named as arguments: their Roles join the targets. Paths relative to `cwd`. */
  roleFiles?: readonly string[];
  /** The role files already being read (`loadRoleFiles` of `rolesDir`): a run over several tenants reads them once. */
  files?: Promise<Result<RoleFile[]>>;
  /** The environment: its secret variables are secrets no Role may hold (key formats are looked for anyway). */
  env?: Record<string, string | undefined>;
  /** `--allow`: overrides of `policy.plan` error findings. */
  allows?: readonly Allow[];
  /** false: no `policy.plan` (the plans `preview` makes of a preview tenant). */
  planPolicy?: false;
}): Promise<FreshPlan> {
  const reading = opts.files ?? loadRoleFiles(opts.cwd, opts.rolesDir);
  // A folder that cannot be read is loadRoleFiles' error to report.
  const stray = strayRoleFiles(opts.cwd, opts.rolesDir).catch((): Issue[] => []);
  const files = await reading;
  if (!files.ok) throw new InvalidFilesError(files.issues);
  // A secret in a Role stops here, before the tenant is asked: it would be sent and shown.
  const scanner = secretScanner(opts.env ?? {}, opts.config);
  const secrets = roleSecretIssues(files.value, scanner);
  if (secrets.length > 0) throw new InvalidFilesError(secrets);
  const targets = targetsOf(opts.cwd, opts.rolesDir, files.value, opts.targets ?? [], opts.roleFiles ?? []);
  const tenant = await opts.open();
  try {
    // The files as this tenant gets them, before anything is sent: an undeclared variable stops here.
    const name = tenant.target.name;
    const forTenant = roleFilesForTenant(files.value, name, tenantVars(opts.config, name));
    if (!forTenant.ok) throw new InvalidFilesError(forTenant.issues);
    const { kept, excluded } = forTenant.value;
    // …and one that a variable puts in, as this tenant would get it.
    const rendered = renderedSecretIssues(files.value, kept, name, scanner);
    if (rendered.length > 0) throw new InvalidFilesError(rendered);
    const remote = await tenant.client.listRoles();
    const { roles } = opts.config;
    const plan = computePlan(kept, remote, {
      prune: opts.prune ?? roles.prune,
      protect: roles.protect,
      ignore: roles.ignore,
      ...(roles.maxDeletes === undefined ? {} : { maxDeletes: roles.maxDeletes }),
      allowEmptyPrune: opts.allowEmptyPrune || roles.allowEmptyPrune === true,
      tenant: planTenantOf(tenant),
      createdAt: opts.now.toISOString(),
      ...(targets === undefined ? {} : { targets }),
      // `kept` are some of the files read, as this tenant gets them (variables touch no name or id).
      roleSetChecked: true,
    });
    if (opts.planPolicy !== false) plan.notes.push(...(await withPolicy(opts.cwd, opts.config, plan, opts.allows ?? [])));
    const deleted = new Set(plan.changes.flatMap((c) => (c.action === 'delete' ? [c.id] : [])));
    const unmanaged = new Set(plan.unmanaged.map((u) => u.id));
    plan.notes.push(...membershipNotes(excluded, remote, name, { deleted, unmanaged }));
    const known = [...new Set(['local', ...Object.keys(opts.config.tenants)])];
    return { plan, tenant, warnings: [...(await stray), ...unmatchedTenantWarnings(files.value, known)], remote, desired: kept };
  } catch (err) {
    await tenant.close();
    throw err;
  }
}

/**
 * The targets of a partial plan: `--target` names and globs, then the name of each role file
 * given as an argument — which must be one of the files the plan reads (a typo or a file outside
 * the roles folder is an error, not a plan of nothing). Undefined: a whole plan.
 */
function targetsOf(cwd: string, dir: SourceDir, files: readonly RoleFile[], targets: readonly string[], paths: readonly string[]): string[] | undefined {
  if (targets.length === 0 && paths.length === 0) return undefined;
  const byFile = new Map(files.map((f) => [f.file, f]));
  const names = paths.map((path) => {
    const file = byFile.get(displayPath(cwd, resolve(cwd, path)));
    if (file === undefined) throw new RoleflowError(`${path} is not a role file in ${dir.display}/ (role files given as arguments must be among those the plan reads)`);
    return file.name;
  });
  return [...new Set([...targets, ...names])];
}
