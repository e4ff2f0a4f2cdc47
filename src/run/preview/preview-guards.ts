import { tenantVars, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { Role } from '../../core/model.js';
import { computePlan, type Plan } from '../../core/plan/index.js';
import { roleFilesForTenant, type RoleFile } from '../../core/roles/index.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { planTenantOf } from '../roles/fresh-plan.js';

/**
 * Before anything is sent: the head's plan as it will be made once the base's plan is carried out
 * (the tenant then holds the base's Roles, and what prune leaves alone), refused (exit 4) when a
 * guard of the head's config refuses it — a protected Role the change updates or deletes, more
 * deletes than `max_deletes`, as the head's own apply would refuse it. Else the
 * base would be applied and tested, and the head then refused, leaving the base's Roles behind.
 */
export function refuseHeadAfterBase(basePlan: Plan, remote: readonly Role[], headFiles: readonly RoleFile[], config: Config, tenant: OpenTenant, now: Date): void {
  const name = tenant.target.name;
  const forTenant = roleFilesForTenant(headFiles, name, tenantVars(config, name));
  if (!forTenant.ok) throw new InvalidFilesError(forTenant.issues);
  const { roles } = config;
  const plan = computePlan(forTenant.value.kept, afterPlan(basePlan, remote), {
    prune: true,
    protect: roles.protect,
    ignore: roles.ignore,
    ...(roles.maxDeletes === undefined ? {} : { maxDeletes: roles.maxDeletes }),
    allowEmptyPrune: true,
    tenant: planTenantOf(tenant),
    createdAt: now.toISOString(),
  });
  if (plan.guards.length > 0) {
    throw new RoleflowError(`the head's plan, once the base is applied, is refused by ${plan.guards.map((g) => g.message).join('; ')}`, 'guard');
  }
}

/** The tenant's Roles once `plan` is carried out on `remote`: a created Role gets a stand-in id. */
function afterPlan(plan: Plan, remote: readonly Role[]): Role[] {
  const byId = new Map(remote.map((r) => [r.id, r]));
  for (const change of plan.changes) {
    if (change.action === 'delete') byId.delete(change.id);
    else if (change.action === 'update') byId.set(change.id, { ...byId.get(change.id)!, ...fields(change.after) });
  }
  const created = plan.changes.flatMap((c, i) => (c.action === 'create' ? [{ id: `preview-base-create-${i}`, ...fields(c.after) }] : []));
  return [...byId.values(), ...created];
}

function fields(state: { name: string; description: string; content: string }): Pick<Role, 'name' | 'description' | 'content'> {
  return { name: state.name, description: state.description, content: state.content };
}
