import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { resolve } from 'node:path';
import type { Config } from '../../core/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { applySaved, applySavedTenants } from './apply-saved.js';
import { approveFreshPlans, carryOutPlan, printApplyJson, tenantTurn, type ApplyFlags, type TenantApplyEnd } from './applying.js';
import { applyArgumentProblem, PlanningCommand, savedPlanTenantProblem } from './planning.js';

export class ApplyCommand extends PlanningCommand {
  static override paths = [['apply']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Make the tenant match the role files',
    details: `
      Without PLANFILE: plans as \`roleflow plan\` does, prints the plan and asks for confirmation
      (only \`yes\` is accepted) unless \`--auto-approve\`. When stdin is not a terminal it refuses
      without \`--auto-approve\`: in CI, approve explicitly or apply a reviewed saved plan. With
      nothing to do it prints \`No changes.\` and exits 0, terminal or not. The guards of
      \`roleflow plan\` refuse it (exit 4, nothing sent), among them prune with no role files at all
      unless \`--allow-empty-prune\` (or \`roles.allow_empty_prune: true\`).

      With PLANFILE (from \`roleflow plan --out\`): carries out exactly that plan and asks nothing,
      the saved plan was the review. It is refused (exit 4, nothing sent) if it was altered since
      it was written (its \`digest\`), if today's config refuses it (\`protect\`, \`max_deletes\`,
      empty prune), or if the tenant is another one or any planned Role changed since. The plan
      names its tenant: without \`--tenant\` (and \`ROLEFLOW_TENANT\`) it goes there.

      Changes run at most \`--concurrency\` at once (default \`roles.concurrency\`, 4): deletes that
      free a name, then updates, creates, other deletes; failed requests are retried. A create is
      sent once: one whose outcome is unknown is looked for over a settle window, then reported
      \`? outcome unknown\`, never as created. Copies that a concurrent apply made are resolved (the
      lowest id stays). Every Role gets a result line; when some fail or are unknown it exits 1,
      and \`apply\` again converges. Ctrl-C starts no new change and reports what was done.

      Several tenants (\`--tenant\` more than once, \`--all-tenants\`, or a saved plan of several):
      each tenant's plan is shown (and approved once), then carried out one tenant at a time in
      order, each under a \`=== tenant NAME ===\` heading. It stops at the first tenant that is
      refused (exit 4) or fails (exit 1); the closing \`Tenants: …\` line (and \`--json\`'s
      \`not_attempted\`) says which tenants were done and which were not attempted. A saved plan of
      several checks every tenant read-only before the first is applied (its digest, today's guards,
      each tenant's base URL, then one list of each: the token and whether its Roles changed since):
      any tenant not ready refuses the whole file with every tenant's reasons, nothing applied
      anywhere (exit 4; exit 1 when a tenant could not be asked). Each tenant is checked again just
      before its turn; one that fails on its turn ends the run there, named, and the \`Tenants:\`
      line (and \`--json\`) still says which were done. It applies all its tenants, each where it
      was planned: \`--tenant\`, \`ROLEFLOW_TENANT\`, \`--all-tenants\`, \`--base-url\` and \`--ws-url\`
      do not go with it (exit 1); for fewer tenants, make a plan of those.
    `,
    examples: [
      ['Review, then confirm', 'roleflow apply'],
      ['In CI, without a prompt', 'roleflow apply --auto-approve --tenant staging'],
      ['Apply a reviewed plan exactly', 'roleflow plan --out plan.json && roleflow apply plan.json'],
      ['Also delete Roles without a role file, results as JSON', 'roleflow apply --prune --auto-approve --json'],
      ['Only some Roles', 'roleflow apply --target support-agent --auto-approve'],
      ['Only the Roles of these files', 'roleflow apply roles/support-agent.md roles/billing.md'],
      ['A reviewed plan of several tenants, tenant by tenant', 'roleflow plan --all-tenants --out plan.json && roleflow apply plan.json'],
      ['A reviewed plan of production, applied there (the plan names its tenant)', 'roleflow plan --tenant production --out prod.json && roleflow apply prod.json'],
    ],
  });

  args = Option.Rest({ name: 'PLANFILE | ROLEFILE' });
  autoApprove = Option.Boolean('--auto-approve', false, { description: 'Apply a fresh plan without asking' });
  concurrency = Option.String('--concurrency', {
    description: 'Requests at once (default: roles.concurrency of the config, else 4)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 64)]),
  });
  json = Option.Boolean('--json', false, { description: 'Print the results as JSON on stdout' });

  private get planFile(): string | undefined {
    return this.args.length === 1 && !this.args[0]!.endsWith('.md') ? this.args[0] : undefined;
  }

  async execute(): Promise<number> {
    const problem = applyArgumentProblem(this.args, this.planFile, { target: this.target, roles: this.roles, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune, allTenants: this.allTenants });
    if (problem !== undefined) throw new RoleflowError(problem, 'usage');
    const config = await this.loadConfig();
    const flags: ApplyFlags = { json: this.json, autoApprove: this.autoApprove, concurrency: this.concurrency ?? config.roles.concurrency, protect: config.roles.protect, journal: { config, command: 'apply' } };
    const several = this.planFile === undefined ? await this.severalTenants(config) : undefined;
    if (several !== undefined) return this.applyFreshTenants(config, several, flags);
    if (this.planFile !== undefined) {
      const { readSavedPlanFile } = await import('../../files/plan-file.js');
      const saved = await readSavedPlanFile(resolve(this.context.cwd, this.planFile), this.planFile);
      const tenants = 'tenants' in saved ? saved.tenants.map((p) => p.tenant.name) : [saved.tenant.name];
      const tenantProblem = savedPlanTenantProblem(this.planFile, tenants, { tenant: this.tenants, envTenant: this.context.env['ROLEFLOW_TENANT'] || undefined, baseUrl: this.baseUrl, wsUrl: this.wsUrl });
      if (tenantProblem !== undefined) throw new RoleflowError(tenantProblem, 'usage');
      const { savedPlanUnknownTenant } = await import('../../core/tenants/select.js');
      const gone = savedPlanUnknownTenant(this.planFile, 'tenants' in saved || (this.tenant === undefined && this.baseUrl === undefined) ? tenants : [], config);
      if (gone !== undefined) throw new RoleflowError(gone, 'config');
      if ('tenants' in saved) return applySavedTenants(this, config, this.planFile, saved, flags);
      return this.finish([await applySaved(this, config, this.planFile, saved, flags)], undefined);
    }
    const { renderPlanText } = await import('../../core/plan/index.js');
    const fresh = await this.freshPlanOf(config, this.args);
    const { plan, rolesDir } = fresh;
    if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
    const shown = renderPlanText(plan, { color: this.colorFor(this.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
    const approved = await approveFreshPlans(this, [plan], shown, flags);
    if (approved !== 'approved' && approved[0]?.status !== 'no_changes') return this.finish(approved, undefined);
    return this.finish([await carryOutPlan(this, plan, fresh.tenant, flags, false, fresh.remote)], undefined);
  }

  /**
   * Several tenants, planned fresh: every tenant opened and listed first (one that cannot be stops
   * the run, nothing applied anywhere), shown, approved once, then carried out one tenant at a time.
   */
  private async applyFreshTenants(config: Config, names: string[], flags: ApplyFlags): Promise<number> {
    const { renderTenantPlansText } = await import('../../core/plan/index.js');
    const { tenantError } = await import('../../core/tenants/index.js');
    const planned = await this.freshPlansOf(config, this.args, names);
    const fresh = planned.flatMap((e) => ('fresh' in e ? [e.fresh] : []));
    const failed = planned.flatMap((e) => ('error' in e ? [tenantError(e.name, e.error)] : []));
    if (failed.length > 0) {
      this.io.err([...failed.map((e) => `error: ${e.message}`), 'Nothing was applied to any tenant.'].join('\n'));
      return ExitCode.Error;
    }
    const plans = fresh.map((f) => f.plan);
    const issues = [...new Map(plans.flatMap((p) => p.issues).map((i) => [JSON.stringify(i), i])).values()];
    if (issues.length > 0) throw new InvalidFilesError(issues);
    const shown = renderTenantPlansText(plans, { color: this.colorFor(this.json ? 'stderr' : 'stdout'), rolesDir: `${fresh[0]!.rolesDir.display}/` });
    const approved = await approveFreshPlans(this, plans, shown, flags);
    // Guards refusing some tenants: those are refused, the others not attempted.
    if (approved !== 'approved') {
      // Nothing to do anywhere: each tenant's journal still learns the state it was found in.
      const ends: TenantApplyEnd[] = [];
      if (approved.every((e) => e.status === 'no_changes')) for (const f of fresh) ends.push(await carryOutPlan(this, f.plan, f.tenant, flags, true, f.remote));
      return this.finish(ends.length > 0 ? ends : approved, { notAttempted: plans.filter((p) => !approved.some((e) => e.plan === p)).map((p) => p.tenant.name) });
    }
    const { applyTenantsInOrder } = await import('../../run/tenants/apply-tenants.js');
    const run = await applyTenantsInOrder(fresh, (f) => f.plan.tenant.name, async (f) => {
      this.tenantHeading(f.plan.tenant.name);
      if (f.plan.changes.length === 0 && !this.json) this.io.out('No changes.');
      return tenantTurn(this, f.plan, () => carryOutPlan(this, f.plan, f.tenant, flags, true, f.remote));
    });
    return this.finish(run.ended, run);
  }

  tenantHeading(name: string): void {
    if (!this.json) this.io.out(`=== tenant ${name} ===`);
  }

  /**
   * The exit code of the run (the first tenant's that did not end with 0, else 0), after the
   * closing line of a run over several tenants and `--json`'s document.
   */
  async finish(ends: readonly TenantApplyEnd[], several: { notAttempted: readonly string[] } | undefined): Promise<number> {
    if (several !== undefined) {
      const { tenantsApplyLine } = await import('../../core/tenants/index.js');
      const line = tenantsApplyLine(ends.map((e) => ({ tenant: e.plan.tenant.name, status: e.status })), several.notAttempted);
      const ok = ends.every((e) => e.code === ExitCode.Ok);
      if (ok && !this.json) this.io.out(line);
      else if (!ok) this.io.err(line);
    }
    if (this.json) await printApplyJson(this, ends, several);
    return ends.find((e) => e.code !== ExitCode.Ok)?.code ?? ExitCode.Ok;
  }
}
