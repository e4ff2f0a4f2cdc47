import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { durationsOf, estimatedDurations, planShards, shardMatrix, type ShardMatrix, type TenantShards } from '../../core/runs/shards/index.js';
import { readJsonReports } from '../read-reports.js';
import { loadFlowTests } from './test-session.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { oneTenant, severalTenants, type ManyTenantsOptions } from '../tenants.js';
import { tenantNameOf } from '../../tenant/open-tenant.js';
import { selectTenants } from '../../core/tenants/index.js';
import { plural } from '../../core/roles/index.js';

export interface ShardsOptions {
  cwd: string;
  config: Config;
  /** `--timings REPORT`: the past durations. */
  timings: string;
  targetMinutes: number;
  maxJobs: number;
  /** The tenants of the matrix (`--tenant`, `--all-tenants`, else the default one). */
  tenants: readonly string[];
}

export interface ShardsVerbOptions extends CommonOptions, ManyTenantsOptions {
  timings: string;
  targetMinutes: number;
  maxJobs: number;
  json: boolean;
}

/** `roleflow shards`: the matrix as JSON (`--json`) or one line per tenant. Nothing is sent to any tenant. */
export async function shards(options: ShardsVerbOptions, ports: Ports): Promise<number> {
  const config = await configOf(options, ports);
  // One tenant is checked against the config as several are: a matrix of jobs that cannot run is refused.
  const tenants = (await severalTenants(config, options)) ?? selectTenants(config, { named: [tenantNameOf(config, { tenant: oneTenant(options, ports, 'shards') })], all: false });
  const result = await planShardMatrix({ cwd: ports.cwd, config, timings: options.timings, targetMinutes: options.targetMinutes, maxJobs: options.maxJobs, tenants });
  if (options.json) ports.output.json(result.matrix, 0);
  else ports.output.out(shardsText(result, options.targetMinutes));
  return ExitCode.Ok;
}

/**
 * How many shards each tenant's suite needs to end within the target (see
 * `planShards`), the tests of the config's flows folder weighed by the timings report (those it
 * lacks at the median), as a GitHub Actions matrix.
 */
export async function planShardMatrix(opts: ShardsOptions): Promise<{ plans: TenantShards[]; matrix: ShardMatrix; tests: number; timed: number }> {
  const files = await loadFlowTests(opts.cwd, opts.config, []);
  const ids = files.flatMap((f) => f.tests.map((t) => t.id));
  const recorded = durationsOf((await readJsonReports(opts.cwd, [opts.timings]))[0]!.report.results);
  const durations = estimatedDurations(ids, recorded);
  const { flows } = opts.config;
  const planned = planShards(
    opts.tenants.map((tenant) => ({ tenant, durations, concurrency: flows.concurrency, concurrencyTotal: flows.concurrencyTotal })),
    { targetMinutes: opts.targetMinutes, maxJobs: opts.maxJobs },
  );
  if (!planned.ok) throw new RoleflowError(planned.error, 'usage');
  return { plans: planned.value, matrix: shardMatrix(planned.value), tests: ids.length, timed: ids.filter((id) => recorded.has(id)).length };
}

/** One line per tenant: `staging: 4 shards of about 9.5 minutes (4 at once each)`, then the matrix's size. */
export function shardsText(result: Awaited<ReturnType<typeof planShardMatrix>>, targetMinutes: number): string {
  const lines = result.plans.map(
    (p) =>
      `${p.tenant}: ${plural(p.shards, 'shard')} of about ${p.estimatedMinutes} minutes (${plural(p.concurrency, 'execution')} at once each)${p.withinTarget ? '' : ` — more than ${targetMinutes} minutes: more shards would not make it shorter within --max-jobs and flows.concurrency_total`}`,
  );
  const untimed = result.tests - result.timed;
  return [
    ...lines,
    `${plural(result.matrix.include.length, 'job')} for ${plural(result.tests, 'test')}${untimed > 0 ? ` (${untimed} not in the timings report: counted at the median)` : ''}; --json prints the matrix.`,
  ].join('\n');
}
