import pLimit from 'p-limit';
import { applyPhases, blockedReason, freedName, outcomeOf, type ApplyOutcome } from '../../core/apply/index.js';
import type { TenantClient } from '../../core/model.js';
import type { DeleteChange, Plan, PlanChange } from '../../core/plan/index.js';
import { oneLine } from '../../core/redact-messages.js';
import { RoleflowError } from '../../core/errors.js';

export interface ExecuteOptions {
  /** At most this many requests at once. */
  concurrency: number;
  /** Called as each change ends, with how many have ended so far. */
  onOutcome?: (outcome: ApplyOutcome, ended: number, total: number) => void;
  /** Asked before each change starts; true (Ctrl-C) starts no more, and the rest are `not_started`. */
  stopped?: () => boolean;
}

/**
 * Carry out a plan's changes phase by phase (see `applyPhases`), at most `concurrency` at once.
 * Every change gets an outcome, in plan order; a failure never stops the others, except that a
 * change taking a name a failed change was to free is skipped. `client` must be the one that
 * listed the tenant for this plan, so a create with a lost answer is looked up, never re-sent blindly.
 */
export async function executePlan(plan: Plan, client: TenantClient, opts: ExecuteOptions): Promise<ApplyOutcome[]> {
  const outcomes: (ApplyOutcome | undefined)[] = new Array(plan.changes.length);
  const failedToFree = new Map<string, PlanChange>();
  const total = plan.changes.length;
  let ended = 0;
  const record = (index: number, outcome: ApplyOutcome): void => {
    outcomes[index] = outcome;
    ended++;
    opts.onOutcome?.(outcome, ended, total);
  };

  for (const phase of applyPhases(plan.changes)) {
    const limit = pLimit(Math.max(1, opts.concurrency));
    await Promise.all(
      phase.map((index) =>
        limit(async () => {
          const change = plan.changes[index]!;
          if (opts.stopped?.()) {
            outcomes[index] = outcomeOf(change, 'not_started');
            return;
          }
          const blocked = blockedReason(change, failedToFree);
          const outcome = blocked !== undefined ? outcomeOf(change, 'skipped', { error: blocked }) : await runChange(change, client);
          if (outcome.status === 'failed') {
            const freed = freedName(change);
            if (freed !== undefined) failedToFree.set(freed, change);
          }
          record(index, outcome);
        }),
      ),
    );
  }
  return outcomes.map((o, i) => o ?? outcomeOf(plan.changes[i]!, 'not_started'));
}

async function runChange(change: PlanChange, client: TenantClient): Promise<ApplyOutcome> {
  try {
    switch (change.action) {
      case 'create': {
        const { id } = await client.createRole(change.after);
        return { ...outcomeOf(change, 'created'), id };
      }
      case 'update':
        await client.updateRole(change.id, change.after);
        return outcomeOf(change, 'updated');
      case 'delete':
        return await deleteRole(change, client);
    }
  } catch (err) {
    const error = oneLine(err instanceof Error ? err.message : String(err));
    const code = err instanceof RoleflowError ? err.code : undefined;
    return outcomeOf(change, code === 'outcome_unknown' ? 'unknown' : 'failed', { error, ...(code === 'tenant_refused' ? { refused: true } : {}) });
  }
}

/**
 * A delete whose Role is already gone (a 404 "role not found", or someone else deleted it) has
 * reached its goal: the tenant is asked, and a Role it no longer holds counts as deleted.
 */
export async function deleteRole(change: DeleteChange, client: TenantClient): Promise<ApplyOutcome> {
  try {
    await client.deleteRole(change.id);
    return outcomeOf(change, 'deleted');
  } catch (err) {
    const stillThere = await client.getRole(change.id).catch(() => 'unknown' as const);
    if (stillThere === undefined) return outcomeOf(change, 'deleted', { already_gone: true });
    throw err;
  }
}
