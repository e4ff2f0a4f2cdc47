import type { Issue, Result } from '../errors.js';
import { matchesGlob } from '../text/glob.js';
import { groupBy } from '../text/lists.js';
import type { Role } from '../model.js';
import { quote, showName } from './display.js';
import type { RoleFile } from './role-file.js';
import { renderRoleFiles, type TenantVars } from './vars.js';

/**
 * Per-tenant Roles: front-matter `tenants: [staging, "eu-*"]` (names or globs) says which
 * tenants a Role is managed on. On any other tenant it is as if the file did not exist.
 */

/** Whether `file` is for `tenant`: it names no tenants, or one of its names or globs matches. */
export function isForTenant(file: RoleFile, tenant: string): boolean {
  return file.tenants === undefined || file.tenants.some((glob) => matchesGlob(tenant, glob));
}

/** The files that are for `tenant`, and those that are not. */
export function filesForTenant(files: readonly RoleFile[], tenant: string): { kept: RoleFile[]; excluded: RoleFile[] } {
  const kept: RoleFile[] = [];
  const excluded: RoleFile[] = [];
  for (const f of files) (isForTenant(f, tenant) ? kept : excluded).push(f);
  return { kept, excluded };
}

/** Why `file` is not for `tenant`, naming where it says so: `not for tenant "production" (tenants: [staging] in roles/x.md:3)`. */
export function notForTenantReason(file: RoleFile, tenant: string): string {
  const at = file.at.tenants === undefined ? '' : `:${file.at.tenants.line}`;
  const list = (file.tenants ?? []).map((t) => showName(t)).join(', ');
  return `not for tenant ${quote(tenant)} (tenants: [${list}] in ${showName(file.file)}${at})`;
}

/**
 * Plan notes for files that are not for this tenant while their Role is on it (by `id`, else by
 * name) and the plan deletes it (`deleted`, ids) or leaves it unmanaged (`unmanaged`, ids): the
 * reviewer sees why. A Role the plan does not touch otherwise (ignored, not targeted) gets none.
 */
export function membershipNotes(
  excluded: readonly RoleFile[],
  remote: readonly Role[],
  tenant: string,
  plan: { deleted: ReadonlySet<string>; unmanaged: ReadonlySet<string> },
): string[] {
  if (excluded.length === 0) return [];
  const notes: string[] = [];
  // The Roles of each name and of each id, in the tenant's order: one pass, not one per file.
  const byName = groupBy(remote, (r) => r.name);
  const byId = groupBy(remote, (r) => r.id);
  for (const file of excluded) {
    const roles = (file.id === undefined ? byName.get(file.name) : byId.get(file.id)) ?? [];
    for (const role of roles) {
      const outcome = plan.deleted.has(role.id) ? 'is deleted from' : plan.unmanaged.has(role.id) ? 'is left unmanaged on' : undefined;
      if (outcome === undefined) continue;
      notes.push(`${quote(role.name)} (id ${showName(role.id)}) ${outcome} tenant ${quote(tenant)}: ${showName(file.file)} is ${notForTenantReason(file, tenant)}`);
    }
  }
  return notes;
}

/**
 * The role files as tenant `tenant` gets them: those that are for it, rendered with its variables
 * (every reference it cannot render is a located issue); and those that are not for it.
 */
export function roleFilesForTenant(files: readonly RoleFile[], tenant: string, vars: TenantVars): Result<{ kept: RoleFile[]; excluded: RoleFile[] }> {
  const { kept, excluded } = filesForTenant(files, tenant);
  const rendered = renderRoleFiles(kept, tenant, vars);
  return rendered.ok ? { ok: true, value: { kept: rendered.value, excluded } } : rendered;
}

/**
 * Warnings about `tenants:` (`validate`, `plan`, `apply`; the exit code is unchanged), each at its
 * place: a name that is none of `tenants` (the configured ones and `local`) is probably a typo that
 * keeps the Role off the tenant meant — globs are not warned about, `eu-*` may be for tenants still
 * to come; and `tenants: []` keeps the Role off every tenant, so that with prune it is deleted
 * everywhere.
 */
export function unmatchedTenantWarnings(files: readonly RoleFile[], tenants: readonly string[]): Issue[] {
  const warnings: Issue[] = [];
  for (const file of files) {
    if (file.tenants === undefined) continue;
    const key = file.at.tenants ?? file.at.name;
    if (file.tenants.length === 0) {
      warnings.push({ file: file.file, ...key, message: 'warning: tenants: [] manages the Role on no tenant; with prune it is deleted everywhere (leave tenants: out for every tenant)' });
    }
    file.tenants.forEach((glob, i) => {
      if (/[*?]/.test(glob) || tenants.includes(glob)) return;
      const at = file.at.tenantNames?.[i] ?? key;
      warnings.push({ file: file.file, ...at, message: `warning: tenants: ${quote(glob)} is not a tenant of the config (${tenants.map((t) => quote(t)).join(', ')})` });
    });
  }
  return warnings;
}
