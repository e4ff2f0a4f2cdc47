import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { renderPlanText, type Plan } from '../../core/plan/index.js';
import { showName } from '../../core/roles/display.js';
import { isTenantFailure, selectTenants, tenantError } from '../../core/tenants/index.js';
import { savePlan } from '../../files/plan-file.js';
import { secretScanner } from '../../core/config/policy/index.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { promotionRefusals } from './promote-gate.js';
import { openTenants } from '../tenants.js';
import { approveFreshPlans, carryOutPlan, ended, printApplyJson, type ApplyFlags } from './applying.js';
import { planner } from './planning.js';
import { safeText } from '../../core/text/safe-text.js';

export interface PromoteOptions extends CommonOptions {
  from: string;
  to: string;
  /** `--report FILE`: the JSON test report of `from`'s run at this commit. */
  report: string;
  /** `--out FILE`: save the plan of `to` instead of applying it. */
  out?: string | undefined;
  roles?: string | undefined;
  prune?: boolean | undefined;
  allowEmptyPrune: boolean;
  /** `--allow`: overrides of plan policy error findings on `to`. */
  allow?: readonly string[] | undefined;
  autoApprove: boolean;
  concurrency?: number | undefined;
  json: boolean;
}

/**
 * `roleflow promote`: the role files applied to `to` once the gate lets them through (`from`
 * matches them, and `report` stands for them there at this commit): every refusal named, exit 4,
 * nothing sent to `to`. Then `to` planned and applied as `apply` does, or saved with `--out`.
 */
export async function promote(options: PromoteOptions, ports: Ports): Promise<number> {
  const { from, to } = options;
  const { output } = ports;
  if (from === to) throw new RoleflowError(`--from and --to are both ${from}: promotion is from one tenant to another`, 'usage');
  if (options.out === '-') throw new RoleflowError('--out -: a saved plan must be a file', 'usage');
  if (options.out !== undefined && resolve(ports.cwd, options.out) === resolve(ports.cwd, options.report)) {
    throw new RoleflowError(`--out ${safeText(options.out)} is the --report file: the plan would overwrite the report; save the plan to another file`, 'usage');
  }
  const config = await configOf(options, ports);
  selectTenants(config, { named: [from, to], all: false });
  // Both tenants' config and token before anything is sent to either.
  const [fromTenant, toTenant] = await openTenants(ports, config, [from, to]);
  const plans = planner(config, { roles: options.roles, prune: options.prune, allowEmptyPrune: options.allowEmptyPrune, allow: options.allow }, ports);
  // Two tenants in one command: an error of either names it (`tenant "staging": cannot reach …`).
  const planOf = (name: string) =>
    plans.one(() => Promise.resolve(name === from ? fromTenant! : toTenant!)).catch((error: unknown) => {
      throw isTenantFailure(error) ? tenantError(name, error) : error;
    });
  const reasons = await promotionRefusals({
    cwd: ports.cwd,
    env: ports.env,
    config,
    from,
    to,
    roles: options.roles,
    reportFile: options.report,
    planFrom: () => planOf(from),
    warn: (line) => output.err(line),
  });
  if (reasons.length > 0) {
    output.err([`error: promotion from ${from} to ${to} refused; nothing was sent to ${to}:`, ...reasons.map((r) => `  - ${r}`)].join('\n'));
    const baseUrl = config.tenants[to]?.baseUrl ?? `embedded:${config.local.data}`;
    if (options.json) printApplyJson(ports, [ended(ExitCode.Refused, { tenant: { name: to, base_url: baseUrl } }, 'refused', [], reasons)], undefined);
    return ExitCode.Refused;
  }
  const fresh = await planOf(to);
  const { plan, rolesDir } = fresh;
  if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
  output.err(`Promoting from ${from} to ${to}: ${from} matches the role files, and ${options.report} passed there at this commit.`);
  const shown = renderPlanText(plan, { color: output.color(options.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
  if (options.out !== undefined) return savePromotionPlan(ports, config, shown, plan, options.out, to);
  // A plan saved by `plan --out` would skip the gate: the promotion's own plan is saved by promote.
  const saveAndApply = `roleflow promote --from ${showName(from)} --to ${showName(to)} --report ${showName(options.report)} --out plan.json && roleflow apply plan.json`;
  const flags: ApplyFlags = { json: options.json, autoApprove: options.autoApprove, concurrency: options.concurrency ?? config.roles.concurrency, protect: config.roles.protect, saveAndApply, journal: { config, command: 'promote' } };
  const approved = await approveFreshPlans(ports, [plan], shown, flags);
  const ends = approved === 'approved' || approved[0]?.status === 'no_changes' ? [await carryOutPlan(ports, plan, fresh.tenant, flags, false, fresh.remote)] : approved;
  if (options.json) printApplyJson(ports, ends, undefined);
  return ends[0]!.code;
}

/** `--out`: the plan of `to` shown and saved, as `plan --out` does (not when guards refuse it). */
async function savePromotionPlan(ports: Ports, config: Config, shown: string, plan: Plan, out: string, to: string): Promise<number> {
  ports.output.out(shown);
  if (plan.guards.length > 0) {
    ports.output.err([...plan.guards.map((g) => `error: ${g.message}`), `The plan was not saved to ${out}: guards refuse it.`].join('\n'));
    return ExitCode.Refused;
  }
  await savePlan(resolve(ports.cwd, out), plan, secretScanner(ports.env, config));
  ports.output.err(`Saved the plan of ${to} to ${safeText(out)}. To carry out exactly this plan: roleflow apply ${safeText(out)}`);
  return ExitCode.Ok;
}
