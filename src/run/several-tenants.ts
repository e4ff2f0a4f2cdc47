import pLimit from 'p-limit';
import type { RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { isTenantFailure } from '../core/tenants/index.js';

// Runs over several tenants, tenant by tenant: planned a few at once, applied and tested in order.

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
export async function planTenants<P extends { tenant: { close(): Promise<void> } }>(names: readonly string[], planOne: (name: string) => Promise<P>): Promise<TenantPlanning<P>[]> {
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

/**
 * Carry out the plans of several tenants one tenant at a time, in order (`applyOne` is the
 * single-tenant apply: checks, requests, result). It stops at the first tenant that does not end
 * with exit 0 (failed, refused, interrupted): the tenants after it are not attempted, and say so.
 */
export async function applyTenantsInOrder<S, E extends { code: number }>(
  steps: readonly S[],
  nameOf: (step: S) => string,
  applyOne: (step: S) => Promise<E>,
): Promise<{ ended: E[]; notAttempted: string[] }> {
  const ended: E[] = [];
  for (const [i, step] of steps.entries()) {
    const end = await applyOne(step);
    ended.push(end);
    if (end.code !== 0) return { ended, notAttempted: steps.slice(i + 1).map(nameOf) };
  }
  return { ended, notAttempted: [] };
}

const WENT: Record<number, string> = { [ExitCode.Ok]: 'passed', [ExitCode.TestsFailed]: 'had failed tests', [ExitCode.Error]: 'ran no test' };

/**
 * The flow tests against several tenants, one after the other (`testOne` is the run of one
 * tenant, ending in its exit code). A tenant that cannot run tests stops the run there (its error
 * said, exit of its kind); an interrupted one stops it (130); else 3 when any tenant had a failed
 * test, else 1 when one ran no test (see `test`). The closing `Tenants:` line says how each went, those not attempted included.
 */
export async function testTenantsInOrder(
  names: readonly string[],
  testOne: (name: string, index: number) => Promise<number>,
  say: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const went: string[] = [];
  const close = (extra: string[]) => say.out(`Tenants: ${[...went, ...extra].join('; ')}.`);
  let worst: number = ExitCode.Ok;
  for (const [i, name] of names.entries()) {
    let code: number;
    try {
      code = await testOne(name, i);
    } catch (error) {
      if (!isTenantFailure(error)) throw error;
      say.err(`error: ${error.message}`);
      const rest = names.slice(i + 1);
      close([`${name} could not be tested`, ...(rest.length > 0 ? [`not attempted: ${rest.join(', ')}`] : [])]);
      return error.exitCode;
    }
    went.push(`${name} ${WENT[code] ?? 'was interrupted'}`);
    if (code === ExitCode.Interrupted) return code;
    if (code !== ExitCode.Ok && worst !== ExitCode.TestsFailed) worst = code;
  }
  close([]);
  return worst;
}
