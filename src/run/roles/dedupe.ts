import { concurrentDuplicates, type ApplyOutcome } from '../../core/apply/index.js';
import type { TenantClient } from '../../core/model.js';
import { quote } from '../../core/roles/index.js';
import { globMatcher, type DeleteChange, type Plan } from '../../core/plan/index.js';
import { deleteRole } from './apply-plan.js';
import { oneLine } from '../../core/redact-messages.js';

export interface DuplicateCheck {
  /** The outcomes, with the creates whose duplicates were resolved (or could not be) updated. */
  outcomes: ApplyOutcome[];
  /** Indexes of the outcomes this check changed. */
  changed: number[];
  /** Why the tenant could not be checked (the apply's own outcomes stand). */
  warning?: string;
}

/**
 * Two applies at once against one tenant (the interface has no lock) can both create a Role.
 * After applying, the tenant is listed once more; every Role this apply created that is now held
 * by several identical copies keeps its lowest id and the other copies are deleted
 * (`concurrentDuplicates`), so whichever apply gets there, the same copy stays. Both applies
 * creating a Role means their creates landed before the later one's listing, so at least one of
 * them sees both. A protected name is never deleted: its duplicates are reported as a failure.
 * A create whose outcome was unknown and whose Role has appeared since is reported created.
 */
export async function removeConcurrentDuplicates(
  plan: Plan,
  outcomes: readonly ApplyOutcome[],
  client: TenantClient,
  protect: readonly string[],
): Promise<DuplicateCheck> {
  const result: DuplicateCheck = { outcomes: [...outcomes], changed: [] };
  if (!outcomes.some((o) => o.action === 'create' && (o.status === 'created' || o.status === 'unknown'))) return result;
  let remote;
  try {
    remote = await client.listRoles();
  } catch (err) {
    result.warning = `could not list the tenant to check for copies a concurrent apply created: ${oneLine(err instanceof Error ? err.message : String(err))}`;
    return result;
  }
  const protectedBy = globMatcher([...protect]);
  for (const found of concurrentDuplicates(plan.changes, outcomes, remote)) {
    const outcome = outcomes[found.index]!;
    const change = plan.changes[found.index]!;
    if (change.action !== 'create') continue;
    result.changed.push(found.index);
    const glob = protectedBy(outcome.name);
    if (glob !== undefined && found.remove.length > 0) {
      result.outcomes[found.index] = {
        ...outcome,
        status: 'failed',
        error: `the tenant holds ${found.remove.length + 1} identical copies (another apply created it at the same time); not removed, the name is protected (protect: ${quote(glob)}): delete one by hand`,
      };
      continue;
    }
    const failures: string[] = [];
    for (const id of found.remove) {
      const copy: DeleteChange = { action: 'delete', name: change.name, remote_hash: change.remote_hash, id, before: change.after };
      const done = await deleteRole(copy, client).catch((err: unknown) => oneLine(err instanceof Error ? err.message : String(err)));
      if (typeof done === 'string') failures.push(`id ${id}: ${done}`);
    }
    const { error: _unknownWhy, ...known } = outcome;
    result.outcomes[found.index] =
      failures.length === 0
        ? {
            ...(found.appeared ? { ...known, status: 'created' as const, appeared_late: true } : outcome),
            id: found.keep,
            ...(found.remove.length === 0 ? {} : { duplicates_removed: found.remove }),
            ...(found.gone === undefined ? {} : { created_id: found.gone }),
          }
        : { ...outcome, status: 'failed', error: `identical copies were created at the same time; removing the extra ones failed (${failures.join('; ')})` };
  }
  return result;
}
