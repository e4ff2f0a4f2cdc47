import type { Issue } from '../errors.js';
import { globToRegExp } from '../glob.js';
import { groupBy } from '../group-by.js';
import type { Role } from '../model.js';
import { quote, showName } from '../roles/display.js';
import type { RoleFile } from '../roles/role-file.js';

/** Which glob of a list a name matches first, or undefined; the globs are compiled once. */
export function globMatcher(globs: readonly string[]): (name: string) => string | undefined {
  const compiled = globs.map((g) => ({ glob: g, re: globToRegExp(g) }));
  return (name) => compiled.find((c) => c.re.test(name))?.glob;
}

/** Roles by id (all of them) and by name (those `named` keeps). */
export function indexRoles(
  roles: readonly Role[],
  named: (role: Role) => boolean = () => true,
): { byId: Map<string, Role>; byName: Map<string, Role[]> } {
  return { byId: rolesById(roles), byName: rolesByName(roles, named) };
}

/** Roles by id; of Roles that share an id (a tenant should never list such), the last. */
function rolesById(roles: readonly Role[]): Map<string, Role> {
  const byId = new Map<string, Role>();
  for (const role of roles) byId.set(role.id, role);
  return byId;
}

/** The Roles `named` keeps, by name, each name's in their order. */
function rolesByName(roles: readonly Role[], named: (role: Role) => boolean): Map<string, Role[]> {
  return groupBy(roles, (role) => (named(role) ? role.name : undefined));
}

export interface Matching {
  /** A file and the remote Role it manages. */
  pairs: { file: RoleFile; role: Role }[];
  /** Files that no remote Role matches. */
  creates: RoleFile[];
  /** Remote Roles (not ignored) that no file manages. */
  orphans: Role[];
  /** Remote Roles by name (not ignored), for creates' name state. */
  byName: Map<string, Role[]>;
  issues: Issue[];
}

/**
 * PRODUCT.md "Matching": a file with `id` takes the Role with that id; any other file takes the
 * one Role with its exact name that no `id` claimed. Files and Roles whose names match `ignore`
 * take no part. Linear in files + Roles.
 */
export function matchRoles(
  files: readonly RoleFile[],
  remote: readonly Role[],
  ignored: (name: string) => string | undefined,
  tenantName: string,
): Matching {
  const byName = rolesByName(remote, (role) => ignored(role.name) === undefined);
  // By id only when a file pins one: most files do not, and indexing 100,000 ids is not free.
  let byId: Map<string, Role> | undefined;

  const claimed = new Set<string>();
  const result: Matching = { pairs: [], creates: [], orphans: [], byName, issues: [] };
  const issue = (file: RoleFile, key: 'id' | 'name', message: string): void => {
    result.issues.push({ file: file.file, ...(key === 'id' ? (file.at.id ?? file.at.name) : file.at.name), message });
  };
  const managed = files.filter((f) => ignored(f.name) === undefined);

  for (const file of managed) {
    if (file.id === undefined) continue;
    const role = (byId ??= rolesById(remote)).get(file.id);
    const glob = role && ignored(role.name);
    if (!role) issue(file, 'id', `id ${quote(file.id)} not found on tenant ${showName(tenantName)}: fix it, or remove it to create the Role`);
    else if (glob !== undefined) issue(file, 'id', `id ${quote(file.id)} is Role ${quote(role.name)}, which matches ignore ${quote(glob)}`);
    else if (!claimed.has(role.id)) {
      claimed.add(role.id);
      result.pairs.push({ file, role });
    }
  }

  for (const file of managed) {
    if (file.id !== undefined) continue;
    const free = unclaimed(byName.get(file.name), claimed);
    if (free.length === 1) result.pairs.push({ file, role: free[0]! });
    else if (free.length === 0) result.creates.push(file);
    else {
      const ids = free.map((r) => showName(r.id)).join(', ');
      issue(file, 'name', `name ${quote(file.name)} is held by ${free.length} Roles on the tenant (ids ${ids}): add "id: <one of them>" to pin the one this file manages`);
    }
    // Claimed even when ambiguous: a file wants them, so they are neither deleted nor unmanaged.
    for (const r of free) claimed.add(r.id);
  }

  for (const holders of byName.values()) {
    for (const role of holders) if (!claimed.has(role.id)) result.orphans.push(role);
  }
  return result;
}

const NONE: readonly Role[] = [];

/** The holders no file has claimed (the holders themselves when that is all of them: the usual one). */
function unclaimed(holders: readonly Role[] | undefined, claimed: ReadonlySet<string>): readonly Role[] {
  if (holders === undefined) return NONE;
  if (holders.length === 1) return claimed.has(holders[0]!.id) ? NONE : holders;
  return holders.filter((r) => !claimed.has(r.id));
}
