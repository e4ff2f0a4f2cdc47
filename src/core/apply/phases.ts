import type { PlanChange } from '../plan/index.js';

/**
 * The phases of an apply: runs of consecutive changes with the same action, in the plan's order
 * (name-freeing deletes, updates, creates, other deletes, as `computePlan` orders them). A phase
 * starts when the previous one has finished, so a create never races the delete that frees its
 * name. Each phase is a list of indexes into `changes`.
 */
export function applyPhases(changes: readonly PlanChange[]): number[][] {
  const phases: number[][] = [];
  let current: number[] = [];
  changes.forEach((change, index) => {
    const previous = current.length > 0 ? changes[current[0]!]!.action : undefined;
    if (previous !== undefined && previous !== change.action) {
      phases.push(current);
      current = [];
    }
    current.push(index);
  });
  if (current.length > 0) phases.push(current);
  return phases;
}

/** The name a change frees on the tenant: a delete's, or the old name of a rename. */
export function freedName(change: PlanChange): string | undefined {
  if (change.action === 'delete') return change.before?.name ?? change.name;
  if (change.action === 'update' && change.before !== undefined && change.before.name !== change.name) return change.before.name;
  return undefined;
}

/** The name a change takes on the tenant: a create's, or the new name of a rename. */
export function takenName(change: PlanChange): string | undefined {
  if (change.action === 'create') return change.name;
  if (change.action === 'update' && change.before !== undefined && change.before.name !== change.name) return change.name;
  return undefined;
}

/**
 * Why a change must not run after earlier failures: it takes a name that a failed change was to
 * free (a create after a failed delete of the same name would leave two Roles with that name).
 * `failedToFree` maps each name a failed change was to free to that change.
 */
export function blockedReason(change: PlanChange, failedToFree: ReadonlyMap<string, PlanChange>): string | undefined {
  const name = takenName(change);
  const blocker = name === undefined ? undefined : failedToFree.get(name);
  if (blocker === undefined) return undefined;
  const what = blocker.action === 'delete' ? 'the delete of' : 'the rename of';
  return `${what} the Role holding this name failed, so it is still taken`;
}
