import pLimit from 'p-limit';
import { ExitCode } from '../../core/exit-codes.js';
import { isTenantFailure } from '../../core/tenants/index.js';
import { showName } from '../../core/roles/display.js';
import type { RoleflowError } from '../../core/errors.js';
import type { Plan } from '../../core/plan/index.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { checkSavedPlan } from '../roles/saved-plan.js';
import { TENANTS_AT_ONCE } from './plan-tenants.js';

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

/** How one tenant of a saved plan of several stands before any is applied. */
export interface SavedTenantCheck {
  name: string;
  /** Why its plan no longer fits it (another base URL, Roles changed since): empty when it fits. */
  reasons: string[];
  /** Why it could not be asked (unreachable, refusing the token): undefined when it answered. */
  failure?: RoleflowError;
}

/**
 * Every tenant of a saved plan of several checked read-only before the first is applied: its
 * base URL against the plan's (offline), then one list of its Roles (the token, and whether the
 * planned Roles are as they were). Nothing is sent but the lists, a few at once.
 */
export async function checkSavedTenants(steps: readonly { plan: Plan; tenant: OpenTenant }[]): Promise<SavedTenantCheck[]> {
  const limit = pLimit(TENANTS_AT_ONCE);
  return Promise.all(
    steps.map(({ plan, tenant }) => limit(async (): Promise<SavedTenantCheck> => {
      const name = plan.tenant.name;
      try {
        return { name, reasons: await checkSavedPlan(plan, tenant) };
      } catch (error) {
        if (!isTenantFailure(error)) throw error;
        return { name, reasons: [], failure: error };
      }
    })),
  );
}

/** A saved plan of several refused whole: what to print, and how each tenant ended (`status` and `code` per tenant; the others not attempted). */
export interface SavedTenantsRefusal {
  message: string;
  ends: { plan: Plan; status: 'refused' | 'failed'; code: number; reasons: string[] }[];
  notAttempted: string[];
  /** A tenant that could not be asked is an error (exit 1) before a refusal (exit 4), as for one tenant. */
  code: number;
}

/**
 * Why saved plan `planFile` of `plans` is refused whole, nothing sent anywhere: the reasons of
 * the whole file (`whole`), then each tenant's (`checks`, in the order of `plans`). Each tenant
 * not ready is refused (or failed, when it could not be asked) with its own reasons only.
 */
export function savedTenantsRefusal(planFile: string, plans: readonly Plan[], whole: readonly string[], checks: readonly SavedTenantCheck[]): SavedTenantsRefusal {
  const lines = [...whole, ...checks.flatMap((c) => [...c.reasons, ...(c.failure === undefined ? [] : [c.failure.message])].map((r) => `tenant ${c.name}: ${r}`))];
  const remake = whole.length > 0 || checks.some((c) => c.reasons.length > 0);
  const fix = remake ? [`Make a new plan: roleflow plan ${plans.map((p) => `--tenant ${showName(p.tenant.name)}`).join(' ')} --out FILE`] : [];
  const message = [`error: the saved plan ${planFile} is refused; nothing was applied to any tenant:`, ...lines.map((r) => `  - ${r}`), ...fix].join('\n');
  const ends: SavedTenantsRefusal['ends'] = [];
  const notAttempted: string[] = [];
  for (const [i, plan] of plans.entries()) {
    const { reasons, failure } = checks[i]!;
    if (failure !== undefined) ends.push({ plan, status: 'failed', code: failure.exitCode, reasons: [failure.message] });
    else if (whole.length > 0 || reasons.length > 0) ends.push({ plan, status: 'refused', code: ExitCode.Refused, reasons: [...whole, ...reasons] });
    else notAttempted.push(plan.tenant.name);
  }
  return { message, ends, notAttempted, code: ends.find((e) => e.status === 'failed')?.code ?? ExitCode.Refused };
}
