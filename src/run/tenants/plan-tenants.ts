import pLimit from 'p-limit';
import type { RoleflowError } from '../../core/errors.js';
import { isTenantFailure } from '../../core/tenants/index.js';
import type { FreshPlan } from '../roles/fresh-plan.js';

/** Tenants listed at once in a run over several: each is a few requests, and tenants may share a host. */
export const TENANTS_AT_ONCE = 4;

/** How planning one tenant of several ended: its fresh plan, or its error (`tenantError` names the tenant in it). */
export type TenantPlanning<P> = { name: string; fresh: P } | { name: string; error: RoleflowError; /** Where it is (`OpenTenant.location`), once known. */ location?: string };

/**
 * A fresh plan of every tenant of `names` (`planOne` is the single-tenant planning, as `plan` does
 * it for one), at most `TENANTS_AT_ONCE` at once, in the order of `names`. A tenant that cannot be
 * listed (unreachable, refusing the token, a failing answer) does not stop the others: its entry
 * holds its error. A problem of the whole run (the role files, the config) closes
 * the tenants the others opened and throws, the first in the order of `names`: what the problem
 * is does not depend on which tenant answered first.
 */
export async function planTenants<P extends FreshPlan>(names: readonly string[], planOne: (name: string) => Promise<P>): Promise<TenantPlanning<P>[]> {
  const limit = pLimit(TENANTS_AT_ONCE);
  const settled = await Promise.allSettled(names.map((name) => limit(() => planOne(name))));
  const fatal = settled.find((s) => s.status === 'rejected' && !isTenantFailure(s.reason));
  if (fatal !== undefined) {
    await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.tenant.close().catch(() => undefined) : undefined)));
    throw (fatal as PromiseRejectedResult).reason;
  }
  return settled.map((s, i) => {
    const name = names[i]!;
    return s.status === 'fulfilled' ? { name, fresh: s.value } : { name, error: s.reason as RoleflowError };
  });
}
