import { configuredTenant, type Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import { planSummaryLine } from '../core/plan/index.js';
import type { RoleFile } from '../core/roles/index.js';
import type { SourceDir } from '../files/source-files.js';
import { LOCAL_TENANT, type OpenTenant } from '../tenant/open-tenant.js';
import { executePlan } from './apply.js';
import { makeFreshPlan, refuseBrokenPlan } from './plan.js';

/**
 * Whether `test --watch` applies changed role files to this tenant: the embedded one, or one
 * marked `watch_apply: true` — never another, whatever is saved.
 */
export function watchApplies(config: Config, tenant: OpenTenant): boolean {
  if (tenant.location.startsWith('embedded:')) return true;
  return configuredTenant(config, tenant.target.name)?.watchApply === true;
}

/**
 * The Roles of `changed` role files (as `files` names them) applied to the tenant: a plan of those
 * Roles alone (no prune: a deleted file deletes nothing), refused by the same guards as `apply`
 * (protect, max_deletes), then carried out. One line says what was done; a failure is an error.
 */
export async function applyChangedRoles(opts: {
  cwd: string;
  config: Config;
  rolesDir: SourceDir;
  files: readonly RoleFile[];
  changed: readonly string[];
  tenant: OpenTenant;
  now: Date;
  signal: AbortSignal;
}): Promise<string> {
  const { tenant } = opts;
  const fresh = await makeFreshPlan({
    cwd: opts.cwd,
    config: opts.config,
    rolesDir: opts.rolesDir,
    prune: false,
    allowEmptyPrune: false,
    // The watch's own tenant: the plan must not close it.
    open: () => Promise.resolve({ ...tenant, close: async () => undefined }),
    now: opts.now,
    roleFiles: opts.changed,
    files: Promise.resolve({ ok: true, value: [...opts.files] }),
  });
  refuseBrokenPlan(fresh.plan);
  const where = tenant.target.name === LOCAL_TENANT ? 'the embedded tenant' : `tenant ${tenant.target.name}`;
  if (fresh.plan.changes.length === 0) return `${where} already holds ${opts.changed.length === 1 ? 'this Role' : 'these Roles'}`;
  const outcomes = await executePlan(fresh.plan, tenant.client, { concurrency: opts.config.roles.concurrency, stopped: () => opts.signal.aborted });
  const failed = outcomes.filter((o) => !['created', 'updated', 'deleted'].includes(o.status));
  if (failed.length > 0) {
    const first = failed[0]!;
    throw new RoleflowError(`applying to ${where} did not complete: ${first.name} ${first.status}${first.error ? ` (${first.error})` : ''}${failed.length > 1 ? `, and ${failed.length - 1} more` : ''}`);
  }
  return `applied to ${where} (${planSummaryLine(fresh.plan)})`;
}
