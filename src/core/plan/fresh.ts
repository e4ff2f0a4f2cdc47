import type { Role } from '../model.js';
import { quote, showName } from '../roles/display.js';
import { planBaseUrl } from '../text/printed-url.js';
import { nameStateHash, roleStateHash } from './hash.js';
import { indexRoles } from './matching.js';
import type { Plan } from './types.js';

export type Freshness = { fresh: true } | { fresh: false; reasons: string[] };

/**
 * Whether a saved plan still describes the tenant: every planned Role as it was, the new name of
 * every planned create or rename held as it was (and, when `tenant` is given, the same tenant).
 * Any reason means `apply PLANFILE` must refuse before sending anything.
 */
export function checkPlanFresh(
  plan: Plan,
  remote: readonly Role[],
  tenant?: { name: string; baseUrl: string },
): Freshness {
  const reasons: string[] = [];
  if (tenant && planBaseUrl(tenant.baseUrl) !== plan.tenant.base_url) {
    reasons.push(`the plan was made for ${showName(plan.tenant.base_url)}, not ${showName(planBaseUrl(tenant.baseUrl))}`);
  }
  const { byId, byName } = indexRoles(remote);
  const checkName = (name: string, hash: string): void => {
    if (nameStateHash(name, byName.get(name) ?? []) !== hash) reasons.push(`the Roles named ${quote(name)} changed on the tenant since the plan was made`);
  };
  for (const change of plan.changes) {
    if (change.action === 'create') {
      checkName(change.name, change.remote_hash);
      continue;
    }
    if (change.name_hash !== undefined) checkName(change.name, change.name_hash);
    const id = change.id ?? '';
    const role = byId.get(id);
    const label = `Role ${quote(change.before?.name ?? change.name)} (id ${showName(id)})`;
    if (!role) {
      reasons.push(`${label} no longer exists on the tenant`);
    } else if (roleStateHash(role) !== change.remote_hash) {
      reasons.push(`${label} changed on the tenant since the plan was made`);
    }
  }
  return reasons.length === 0 ? { fresh: true } : { fresh: false, reasons };
}

/** Whether applying the plan would send anything. */
export function planHasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
