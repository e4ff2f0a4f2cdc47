import type { Role } from '../model.js';
import { compare, nameStateHash, type PlanChange } from '../plan/index.js';
import { groupBy } from '../text/lists.js';
import type { ApplyOutcome } from './result.js';

/** What to do about one Role this apply created that the tenant now holds more than once. */
export interface DuplicateResolution {
  /** Index of the create in the plan's changes and in the outcomes. */
  index: number;
  /** The id that stays: the lowest of the identical copies. */
  keep: string;
  /** Ids of the other identical copies, to delete. */
  remove: string[];
  /** This apply's own copy, when another apply already removed it in favour of `keep`. */
  gone?: string;
  /** A create whose outcome was unknown: the Role has appeared since (its name was free when planned). */
  appeared?: true;
}

/**
 * After an apply: the Roles it created that the tenant now holds more than once with the same
 * name, description and content — another apply (another CI job, another person) created them at
 * the same time, since the interface has no lock. Every apply keeps the copy with the lowest id,
 * so two applies resolving the same name agree on the survivor and delete the same copies. Only
 * copies identical to what this apply created are ever named; a Role that differs in any field
 * is not a duplicate and is left alone.
 *
 * A create whose outcome was unknown is looked at too when its name was free when planned (its
 * `remote_hash` says so): every identical Role holding the name now was created since, by this
 * apply's late-landing request or by another apply, and the tenant holds what was asked — the
 * same rule the settle window applies, one look later. It `appeared`, with the same lowest-id rule.
 */
export function concurrentDuplicates(
  changes: readonly PlanChange[],
  outcomes: readonly ApplyOutcome[],
  remote: readonly Role[],
): DuplicateResolution[] {
  const byName = groupBy(remote, (r) => r.name);
  const resolutions: DuplicateResolution[] = [];
  outcomes.forEach((outcome, index) => {
    const change = changes[index];
    const after = change?.after;
    if (outcome.action !== 'create' || after === undefined) return;
    const identical = (byName.get(after.name) ?? [])
      .filter((r) => r.description === after.description && r.content === after.content)
      .map((r) => r.id)
      .sort(compare);
    const keep = identical[0];
    if (keep === undefined) return;
    if (outcome.status === 'unknown' && change!.remote_hash === nameStateHash(after.name, [])) {
      resolutions.push({ index, keep, remove: identical.slice(1), appeared: true });
      return;
    }
    if (outcome.status !== 'created' || outcome.id === undefined || (identical.length === 1 && keep === outcome.id)) return;
    resolutions.push({
      index,
      keep,
      remove: identical.slice(1),
      ...(identical.includes(outcome.id) ? {} : { gone: outcome.id }),
    });
  });
  return resolutions;
}
