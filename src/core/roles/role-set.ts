import type { Issue } from '../errors.js';
import type { Position, RoleFile } from './role-file.js';
import { groupBy } from '../text/lists.js';
import { HISTORY_ROLE } from './reserved.js';

/**
 * Ids must be unique across role files, and so must names, except that files may share a name
 * when every one of them pins a distinct `id`: matching is then unambiguous, and that is how a
 * tenant that already holds several Roles with one name is adopted. Each name (or id) used wrongly
 * is one issue, at its first file, naming every other file with its position.
 */
export function checkRoleSet(files: readonly RoleFile[]): Issue[] {
  return [
    ...files.filter((f) => f.name === HISTORY_ROLE).map((f) => ({ file: f.file, ...f.at.name, message: `name ${JSON.stringify(HISTORY_ROLE)} is reserved: roleflow keeps its apply journal in the Role of that name (history.store: tenant); name this Role otherwise` })),
    ...duplicates(files, (f) => f.id, (f) => f.at.id ?? f.at.name, 'id'),
    ...duplicates(files, (f) => f.name, (f) => f.at.name, 'name', eachPinsItsOwnId),
  ].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

const WHY = {
  id: 'each Role needs exactly one file',
  name: 'each Role needs exactly one file (for Roles that share a name on the tenant, pin each file to its Role with "id:")',
};

function eachPinsItsOwnId(group: readonly RoleFile[]): boolean {
  const ids = new Set<string>();
  for (const f of group) {
    if (f.id === undefined || ids.has(f.id)) return false;
    ids.add(f.id);
  }
  return true;
}

/** `key` is the value that must be unique (undefined: none), `at` where it stands. */
function duplicates(
  files: readonly RoleFile[],
  key: (f: RoleFile) => string | undefined,
  at: (f: RoleFile) => Position,
  what: 'name' | 'id',
  allowed: (group: readonly RoleFile[]) => boolean = () => false,
): Issue[] {
  // Values seen twice, found first without grouping: there are usually none, and plans check
  // every name of thousands of files.
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const f of files) {
    const k = key(f);
    if (k === undefined) continue;
    const size = seen.size;
    if (seen.add(k).size === size) repeated.add(k);
  }
  if (repeated.size === 0) return [];
  const groups = groupBy(files, (f) => {
    const k = key(f);
    return k !== undefined && repeated.has(k) ? k : undefined;
  });
  const issues: Issue[] = [];
  for (const [value, group] of groups) {
    if (allowed(group)) continue;
    const [first, ...others] = group.map((f) => ({ file: f.file, at: at(f) }));
    const where = others.map((o) => `${o.file}:${o.at.line}:${o.at.col}`).join(', ');
    issues.push({ file: first!.file, ...first!.at, message: `${what} ${JSON.stringify(value)} is also used by ${where}: ${WHY[what]}` });
  }
  return issues;
}
