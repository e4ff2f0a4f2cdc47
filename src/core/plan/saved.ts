import { planGuards, type GuardOptions } from './guards.js';
import type { Plan } from './types.js';
import { planDigest } from './render-json.js';

/**
 * Why a saved plan must be refused before the tenant is even read (exit 4, nothing sent): it was
 * altered since `plan --out` wrote it (its digest does not match), or it fails the guards of the
 * config as it is today (`protect`, `max_deletes`, empty prune) — a plan reviewed yesterday does
 * not escape a `protect` added this morning. Consent to an empty prune given when the plan was
 * made (`--allow-empty-prune`) is recorded in it and covered by the digest.
 */
export function savedPlanRefusals(plan: Plan, today: GuardOptions): string[] {
  const reasons: string[] = [];
  if (plan.digest === undefined) {
    reasons.push('it has no digest: it was not written by `roleflow plan --out` or by an older roleflow), or it was edited');
  } else if (planDigest(plan) !== plan.digest) {
    reasons.push('it was altered since `roleflow plan --out` wrote it: its digest does not match its contents');
  }
  const { create, update } = plan.summary;
  const managed = plan.summary.unchanged + create + update;
  const guards = planGuards(plan.changes, managed, {
    ...today,
    allowEmptyPrune: today.allowEmptyPrune === true || plan.options.allow_empty_prune === true,
  });
  reasons.push(...guards.map((g) => `today's config refuses it: ${g.message}`));
  return reasons;
}
