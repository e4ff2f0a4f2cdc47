import { groupBy } from '../text/lists.js';
import type { Role } from '../model.js';
import { quote, showName } from '../roles/display.js';
import { globMatcher } from './matching.js';
import type { PlanChange } from './types.js';

/** Hints for the reviewer (`plan.notes`): what the plan does that is probably not what was meant. */

/** A delete (or unmanaged Role) and a create with the same description and content look like a rename. */
export function renameNotes(creates: PlanChange[], orphans: Role[], prune: boolean): string[] {
  if (orphans.length === 0 || creates.length === 0) return [];
  const createsByFields = new Map<string, PlanChange>();
  for (const c of creates) createsByFields.set(fieldsKey(c.after!), c);
  const notes: string[] = [];
  for (const role of [...orphans].sort(byNameThenId)) {
    const key = fieldsKey(role);
    const create = createsByFields.get(key);
    if (!create) continue;
    createsByFields.delete(key);
    const instead = prune ? 'instead of deleting it and creating a new one' : 'instead of creating a second copy';
    notes.push(
      `${quote(role.name)} (id ${showName(role.id)}) and ${quote(create.name)} (${showName(create.file!)}) have the same description and content: ` +
        `if this is a rename, add "id: ${showName(role.id)}" to ${showName(create.file!)} to rename the Role ${instead}`,
    );
  }
  return notes;
}

/**
 * Renames into a name that, once the plan is carried out, more than one Role holds: the new name's
 * current holders that are neither deleted nor renamed away by the plan, plus every Role renamed
 * into it. One note per such name.
 */
export function sharedNameNotes(updates: readonly PlanChange[], deletes: readonly PlanChange[], holdersOf: (name: string) => readonly Role[]): string[] {
  const renames = updates.filter((u) => u.before!.name !== u.name);
  if (renames.length === 0) return [];
  const leaving = new Set<string>([...renames, ...deletes].map((c) => c.id!));
  const renamesInto = groupBy(renames, (r) => r.name);
  const notes: string[] = [];
  for (const [name, group] of [...renamesInto].sort(([a], [b]) => compare(a, b))) {
    const keepers = holdersOf(name).filter((h) => !leaving.has(h.id)).map((h) => showName(h.id)).sort(compare);
    const total = group.length + keepers.length;
    if (total < 2) continue;
    const movers = group.map((c) => `${quote(c.before!.name)} (id ${showName(c.id!)})`).sort(compare);
    let note = `after this plan ${total} Roles will be named ${quote(name)}: ${movers.join(', ')} ${movers.length === 1 ? 'is' : 'are'} renamed to it`;
    if (keepers.length > 0) note += `, and the ${keepers.length === 1 ? 'Role' : 'Roles'} with id ${keepers.join(', ')} ${keepers.length === 1 ? 'keeps' : 'keep'} it`;
    notes.push(note);
  }
  return notes;
}

function fieldsKey(fields: { description: string; content: string }): string {
  return JSON.stringify([fields.description, fields.content]);
}

export function byNameThenId(a: { name: string; id?: string }, b: { name: string; id?: string }): number {
  return compare(a.name, b.name) || compare(a.id ?? '', b.id ?? '');
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A partial plan says so first, and names each target that matches nothing (a typo would
 * otherwise plan nothing in silence).
 */
export function targetNotes(targets: readonly string[] | undefined, files: readonly { name: string }[], remote: readonly { name: string }[]): string[] {
  if (targets === undefined) return [];
  const notes = [`partial plan: only Roles matching ${targets.map(quote).join(', ')} are planned; the others are left as they are, and prune does not reach them`];
  for (const target of targets) {
    const matches = globMatcher([target]);
    if (!files.some((f) => matches(f.name) !== undefined) && !remote.some((r) => matches(r.name) !== undefined)) {
      notes.push(`--target ${quote(target)} matches no role file and no Role on the tenant`);
    }
  }
  return notes;
}
