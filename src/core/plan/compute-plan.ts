import type { Issue } from '../errors.js';
import type { Role } from '../model.js';
import { contentDiff } from './content-diff.js';
import { showName } from '../roles/display.js';
import { planGuards } from './guards.js';
import { planBaseUrl } from '../text/printed-url.js';
import { nameStateHash, roleStateHash } from './hash.js';
import { globMatcher, matchRoles } from './matching.js';
import {
  PLAN_FORMAT_VERSION,
  type ChangedField,
  type Plan,
  type PlanChange,
  type PlanOptions,
  type PlanRoleState,
} from './types.js';
import type { RoleFile } from '../roles/role-file.js';
import { byNameThenId, compare, renameNotes, sharedNameNotes, targetNotes } from './notes.js';
import { checkRoleSet } from '../roles/role-set.js';
import { withoutJournalRole } from '../roles/reserved.js';

/**
 * The plan: what `apply` must do so the tenant matches the role files. Pure and synchronous,
 * linear in files + Roles (diffs are computed for updates only).
 *
 * Order: deletes that free a name a create or a rename needs, then updates, creates, other
 * deletes; alphabetical within each group.
 */
export function computePlan(desired: readonly RoleFile[], listed: readonly Role[], options: PlanOptions): Plan {
  // The journal's Role (`history.store: tenant`) is roleflow's own: never matched, unmanaged or pruned.
  const remote = withoutJournalRole(listed);
  const matching = matchRoles(desired, remote, globMatcher(options.ignore), options.tenant.name);
  // A partial plan: matching saw every file and Role (ids, renames, shared names); only the
  // targeted ones become changes, and prune reaches no further than the targets.
  const targetedBy = options.targets === undefined ? undefined : globMatcher(options.targets);
  const targeted = (name: string): boolean => targetedBy === undefined || targetedBy(name) !== undefined;
  const pairs = matching.pairs.filter(({ file, role }) => targeted(file.name) || targeted(role.name));
  const orphans = matching.orphans.filter((r) => targeted(r.name));
  const managed = options.targets === undefined ? desired.length : pairs.length + matching.creates.filter((f) => targeted(f.name)).length;

  const updates: PlanChange[] = [];
  let unchanged = 0;
  const { holdersOf } = matching;
  for (const { file, role } of pairs) {
    const change = updateOf(file, role, holdersOf);
    if (change) updates.push(change);
    else unchanged++;
  }
  const creates = matching.creates.filter((file) => targeted(file.name)).map(
    (file): PlanChange => ({
      action: 'create',
      name: file.name,
      file: file.file,
      after: stateOf(file),
      remote_hash: nameStateHash(file.name, holdersOf(file.name)),
    }),
  );
  const deletes = options.prune ? orphans.map(deleteOf) : [];
  const unmanaged = options.prune ? [] : orphans.map((r) => ({ id: r.id, name: r.name }));

  const guards = planGuards([...updates, ...deletes], managed, options);

  return {
    format_version: PLAN_FORMAT_VERSION,
    tenant: { name: options.tenant.name, base_url: planBaseUrl(options.tenant.baseUrl) },
    ...(options.createdAt === undefined ? {} : { created_at: options.createdAt }),
    options: {
      prune: options.prune,
      protect: [...options.protect],
      ignore: [...options.ignore],
      ...(options.maxDeletes === undefined ? {} : { max_deletes: options.maxDeletes }),
      ...(options.allowEmptyPrune === true ? { allow_empty_prune: true } : {}),
      ...(options.targets === undefined ? {} : { targets: [...options.targets] }),
    },
    summary: { create: creates.length, update: updates.length, delete: deletes.length, unchanged, unmanaged: unmanaged.length },
    changes: ordered(updates, creates, deletes),
    unmanaged: unmanaged.sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id)),
    notes: [
      ...targetNotes(options.targets, desired, remote),
      ...renameNotes(creates, orphans, options.prune),
      ...sharedNameNotes(updates, deletes, holdersOf),
    ],
    guards,
    issues: [...(options.roleSetChecked === true ? [] : checkRoleSet(desired)), ...matching.issues],
  };
}

function updateOf(file: RoleFile, role: Role, holdersOf: (name: string) => Role[]): PlanChange | undefined {
  const fields: ChangedField[] = [];
  if (file.name !== role.name) fields.push('name');
  if (file.description !== role.description) fields.push('description');
  if (file.content !== role.content) fields.push('content');
  if (fields.length === 0) return undefined;
  // Keys in the order the JSON has them (render-json.ts), so rendering need not copy the change.
  return {
    action: 'update',
    name: file.name,
    id: role.id,
    file: file.file,
    fields,
    before: stateOf(role),
    after: stateOf(file),
    ...(fields.includes('content')
      ? { diff: contentDiff(role.content, file.content, `${showName(role.name)} (tenant)`, showName(file.file)) }
      : {}),
    remote_hash: roleStateHash(role),
    // A rename, like a create, counts on its new name being held as it was.
    ...(file.name === role.name ? {} : { name_hash: nameStateHash(file.name, holdersOf(file.name)) }),
  };
}

function deleteOf(role: Role): PlanChange {
  return { action: 'delete', name: role.name, id: role.id, before: stateOf(role), remote_hash: roleStateHash(role) };
}

function stateOf(fields: PlanRoleState): PlanRoleState {
  return { name: fields.name, description: fields.description, content: fields.content };
}

function ordered(updates: PlanChange[], creates: PlanChange[], deletes: PlanChange[]): PlanChange[] {
  const needed = new Set<string>(creates.map((c) => c.name));
  for (const u of updates) if (u.before!.name !== u.name) needed.add(u.name);
  const freeing = deletes.filter((d) => needed.has(d.name));
  const rest = deletes.filter((d) => !needed.has(d.name));
  return [freeing, updates, creates, rest].flatMap((group) => group.sort(byNameThenId));
}

/**
 * The plan of role files that could not be read: nothing planned, the tenant not asked, every
 * problem in `issues` — so `plan --json` and `--format markdown` report them in their own format.
 */
export function unreadablePlan(issues: readonly Issue[], options: Pick<PlanOptions, 'prune' | 'protect' | 'ignore' | 'tenant'>): Plan {
  return {
    format_version: PLAN_FORMAT_VERSION,
    tenant: { name: options.tenant.name, base_url: planBaseUrl(options.tenant.baseUrl) },
    options: { prune: options.prune, protect: [...options.protect], ignore: [...options.ignore] },
    summary: { create: 0, update: 0, delete: 0, unchanged: 0, unmanaged: 0 },
    changes: [],
    unmanaged: [],
    notes: [],
    guards: [],
    issues: [...issues],
  };
}
