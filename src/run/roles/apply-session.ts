import type { ApplyOutcome, ApplyRun } from '../../core/apply/index.js';
import type { TenantClient } from '../../core/model.js';
import type { Plan } from '../../core/plan/index.js';
import { executePlan } from './apply-plan.js';
import { removeConcurrentDuplicates } from './dedupe.js';

/**
 * `apply`: the plan's changes (`executePlan`, at most `concurrency` at once, `onOutcome` as each
 * ends), then — unless stopped — the check for copies a concurrent apply created
 * (`removeConcurrentDuplicates`). `stopped()` true (Ctrl-C) starts no new change.
 */
export async function applyPlan(
  plan: Plan,
  client: TenantClient,
  opts: {
    concurrency: number;
    protect: readonly string[];
    stopped: () => boolean;
    onOutcome?: (outcome: ApplyOutcome, ended: number, total: number) => void;
  },
): Promise<ApplyRun> {
  const applied = await executePlan(plan, client, { concurrency: opts.concurrency, stopped: opts.stopped, ...(opts.onOutcome && { onOutcome: opts.onOutcome }) });
  if (opts.stopped()) return { outcomes: applied, resolved: [], interrupted: true };
  const checked = await removeConcurrentDuplicates(plan, applied, client, opts.protect);
  const resolved = checked.changed.map((i) => checked.outcomes[i]!).filter((o) => o.status === 'created');
  return { outcomes: checked.outcomes, resolved, ...(checked.warning !== undefined && { warning: checked.warning }), interrupted: false };
}
