import pLimit from 'p-limit';
import type { FreshPlan } from '../plan.js';

/** Tenants listed at once in a run over several: each is a few requests, and tenants may share a host. */
export const TENANTS_AT_ONCE = 4;

/**
 * A fresh plan of every tenant of `names` (`planOne` is the single-tenant planning, as `plan` does
 * it for one), at most `TENANTS_AT_ONCE` at once, in the order of `names`. When any fails, the
 * tenants the others opened are closed and the error of the first failing tenant, in that order,
 * is thrown: what one tenant's problem is does not depend on which answered first.
 */
export async function planTenants<P extends FreshPlan>(names: readonly string[], planOne: (name: string) => Promise<P>): Promise<P[]> {
  const limit = pLimit(TENANTS_AT_ONCE);
  const settled = await Promise.allSettled(names.map((name) => limit(() => planOne(name))));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed === undefined) return settled.map((s) => (s as PromiseFulfilledResult<P>).value);
  await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.tenant.close().catch(() => undefined) : undefined)));
  throw failed.reason;
}
