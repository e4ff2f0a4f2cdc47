import { plural, quote } from '../roles/display.js';
import { globMatcher } from './matching.js';
import type { PlanChange, PlanGuard } from './types.js';

/** The guards' settings: the config's `roles.protect`, `roles.max_deletes`, empty-prune consent. */
export interface GuardOptions {
  protect: readonly string[];
  maxDeletes?: number | undefined;
  allowEmptyPrune?: boolean | undefined;
}

/**
 * Why a plan must not be carried out (exit 4): an update or delete of a protected Role, more
 * deletes than `maxDeletes`, or deletes while no role file manages anything on the tenant (an
 * empty or mistyped roles folder must not empty it). `changes` in the order they are reported;
 * `managed` is how many role files the plan is made from. Used by `computePlan`, and by
 * `apply PLANFILE` with today's config, so a saved plan meets the guards of the day it is applied.
 */
export function planGuards(changes: readonly PlanChange[], managed: number, options: GuardOptions): PlanGuard[] {
  const protectedBy = globMatcher([...options.protect]);
  const guards: PlanGuard[] = [];
  let deletes = 0;
  for (const change of changes) {
    if (change.action === 'create') continue;
    if (change.action === 'delete') deletes++;
    const name = change.before?.name ?? change.name;
    const glob = protectedBy(name);
    if (glob === undefined) continue;
    guards.push({ kind: 'protected', name, message: `Role ${quote(name)} is protected (protect: ${quote(glob)}): refusing to ${change.action} it` });
  }
  if (options.maxDeletes !== undefined && deletes > options.maxDeletes) {
    guards.push({ kind: 'max_deletes', message: `${plural(deletes, 'delete')} planned, more than max_deletes (${options.maxDeletes}): refusing the plan` });
  }
  if (managed === 0 && deletes > 0 && options.allowEmptyPrune !== true) {
    guards.push({
      kind: 'empty_prune',
      message:
        `there are no role files, yet prune would delete every Role on the tenant (${deletes}): refusing the plan. ` +
        'If the roles folder is right and the tenant is to be emptied, add --allow-empty-prune (or roles.allow_empty_prune: true)',
    });
  }
  return guards;
}
