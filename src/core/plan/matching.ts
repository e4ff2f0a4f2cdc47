import type { Issue } from '../errors.js';
import { compileGlob } from '../text/glob.js';
import { groupBy } from '../text/lists.js';
import type { Role } from '../model.js';
import { quote, showName } from '../roles/display.js';
import type { RoleFile } from '../roles/role-file.js';

/** Which glob of a list a name matches first, or undefined; the globs are compiled once. */
export function globMatcher(globs: readonly string[]): (name: string) => string | undefined {
  const compiled = globs.map((g) => ({ glob: g, re: compileGlob(g) }));
  return (name) => compiled.find((c) => c.re.test(name))?.glob;
}

/** Roles by id (see `rolesById`) and by name, each name's in the tenant's order. */
export function indexRoles(roles: readonly Role[]): { byId: Map<string, Role>; byName: Map<string, Role[]> } {
  return { byId: rolesById(roles), byName: groupBy(roles, (role) => role.name) };
}

/** Roles by id; of Roles that share an id (a tenant should never list such), the last. */
function rolesById(roles: readonly Role[]): Map<string, Role> {
  const byId = new Map<string, Role>();
  for (const role of roles) byId.set(role.id, role);
  return byId;
}

export interface Matching {
  /** A file and the remote Role it manages. */
  pairs: { file: RoleFile; role: Role }[];
  /** Files that no remote Role matches. */
  creates: RoleFile[];
  /** Remote Roles (not ignored) that no file manages. */
  orphans: Role[];
  /** The remote Roles (not ignored) holding `name`, in the tenant's order (empty when none), for creates' name state. */
  holdersOf(name: string): Role[];
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
  const { byName, count } = holdersByName(remote, ignored);
  // By id only when a file pins one: most files do not, and indexing 100,000 ids is not free.
  let byId: Map<string, Role> | undefined;

  const claimed = new Set<string>();
  const pairs: Matching['pairs'] = [];
  const creates: RoleFile[] = [];
  const issues: Issue[] = [];
  const issue = (file: RoleFile, key: 'id' | 'name', message: string): void => {
    issues.push({ file: file.file, ...(key === 'id' ? (file.at.id ?? file.at.name) : file.at.name), message });
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
      pairs.push({ file, role });
    }
  }

  for (const file of managed) {
    if (file.id !== undefined) continue;
    const held = byName.get(file.name);
    if (held === undefined) {
      creates.push(file);
      continue;
    }
    if (!Array.isArray(held)) {
      // The usual case: one Role holds the name.
      if (claimed.has(held.id)) creates.push(file);
      else {
        claimed.add(held.id);
        pairs.push({ file, role: held });
      }
      continue;
    }
    const free = held.filter((r) => !claimed.has(r.id));
    if (free.length === 1) pairs.push({ file, role: free[0]! });
    else if (free.length === 0) creates.push(file);
    else {
      const ids = free.map((r) => showName(r.id)).join(', ');
      issue(file, 'name', `name ${quote(file.name)} is held by ${free.length} Roles on the tenant (ids ${ids}): add "id: <one of them>" to pin the one this file manages`);
    }
    // Claimed even when ambiguous: a file wants them, so they are neither deleted nor unmanaged.
    for (const r of free) claimed.add(r.id);
  }

  // Only ids of these Roles are ever claimed: as many claimed as there are Roles means every one
  // is (ids shared by several Roles, which a tenant should never list, make the count fall short).
  const orphans: Role[] = [];
  if (claimed.size < count) {
    for (const held of byName.values()) {
      if (!Array.isArray(held)) {
        if (!claimed.has(held.id)) orphans.push(held);
      } else for (const role of held) if (!claimed.has(role.id)) orphans.push(role);
    }
  }
  const holdersOf = (name: string): Role[] => {
    const held = byName.get(name);
    return held === undefined ? [] : Array.isArray(held) ? held : [held];
  };
  return { pairs, creates, orphans, holdersOf, issues };
}

/**
 * The Roles not ignored, by name: a name one Role holds maps to it, a name several hold to them
 * all in the tenant's order (no array for each of thousands of names); and how many Roles that is.
 */
function holdersByName(remote: readonly Role[], ignored: (name: string) => string | undefined): { byName: Map<string, Role | Role[]>; count: number } {
  const byName = new Map<string, Role | Role[]>();
  let count = 0;
  for (const role of remote) {
    if (ignored(role.name) !== undefined) continue;
    count++;
    const held = byName.get(role.name);
    if (held === undefined) byName.set(role.name, role);
    else if (Array.isArray(held)) held.push(role);
    else byName.set(role.name, [held, role]);
  }
  return { byName, count };
}
