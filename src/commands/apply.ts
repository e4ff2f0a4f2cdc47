import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { ApplyOutcome, ApplyRunStatus } from '../core/apply/index.js';
import type { Plan } from '../core/plan/index.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { Config } from '../core/config.js';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { LiveResults } from '../terminal/live-results.js';
import { applyArgumentProblem, PlanningCommand } from './planning.js';

const QUESTION = "Apply these changes? Only 'yes' is accepted:";
const NO_TTY = 'refusing to apply without confirmation: stdin is not a terminal. Add --auto-approve, or save a plan for review and apply it: roleflow plan --out plan.json && roleflow apply plan.json';

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
      empty prune), or if the tenant is another one or any planned Role changed since.

      Changes run at most \`--concurrency\` at once (default \`roles.concurrency\`, 4): deletes that
      free a name, then updates, creates, other deletes; failed requests are retried. A create is
      sent once: one whose outcome is unknown is looked for over a settle window, then reported
      \`? outcome unknown\`, never as created. Copies that a concurrent apply made are resolved (the
      lowest id stays). Every Role gets a result line; when some fail or are unknown it exits 1,
      and \`apply\` again converges. Ctrl-C starts no new change and reports what was done.
    `,
    examples: [
      ['Review, then confirm', 'roleflow apply'],
      ['In CI, without a prompt', 'roleflow apply --auto-approve --tenant staging'],
      ['Apply a reviewed plan exactly', 'roleflow plan --out plan.json && roleflow apply plan.json'],
      ['Also delete Roles without a role file, results as JSON', 'roleflow apply --prune --auto-approve --json'],
      ['Only some Roles', 'roleflow apply --target support-agent --auto-approve'],
      ['Only the Roles of these files', 'roleflow apply roles/support-agent.md roles/billing.md'],
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
    const problem = applyArgumentProblem(this.args, this.planFile, { target: this.target, roles: this.roles, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune });
    if (problem !== undefined) throw new RoleflowError(problem, 'usage');
    const config = await this.loadConfig();
    const prepared = this.planFile === undefined ? await this.freshPlan(config) : await this.savedPlan(config, this.planFile);
    if (typeof prepared === 'number') return prepared;
    return this.carryOut(prepared.plan, prepared.tenant, this.concurrency ?? config.roles.concurrency, config.roles.protect);
  }

  /** A fresh plan, shown, past its guards and approved; else the exit code (`cleanup` closes the tenant). */
  private async freshPlan(config: Config): Promise<{ plan: Plan; tenant: OpenTenant } | number> {
    const { renderPlanText } = await import('../core/plan/index.js');
    const fresh = await this.freshPlanOf(config, this.args);
    const { plan, rolesDir } = fresh;
    if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
    const shown = renderPlanText(plan, { color: this.colorFor(this.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
    if (!this.json) this.io.out(shown);
    else if (!this.autoApprove && plan.changes.length > 0) this.io.err(shown);
    if (plan.guards.length > 0) {
      this.io.err(plan.guards.map((g) => `error: ${g.message}`).join('\n'));
      return this.result(ExitCode.Refused, plan, 'refused', [], plan.guards.map((g) => g.message));
    }
    if (plan.changes.length === 0) return this.result(ExitCode.Ok, plan, 'no_changes');
    if (this.autoApprove) return fresh;
    // Asked only once there is something to approve: nothing to do is `No changes.`, exit 0, in CI too.
    if (!this.context.stdinIsTTY) throw new RoleflowError(NO_TTY, 'usage');
    const { confirm } = await import('../terminal/prompt.js');
    if (await confirm(this.context.stdin, this.context.stderr, QUESTION)) return fresh;
    this.io.err('Apply cancelled: nothing was changed.');
    return this.result(ExitCode.Error, plan, 'cancelled');
  }

  private async savedPlan(config: Config, planFile: string): Promise<{ plan: Plan; tenant: OpenTenant } | number> {
    const { openSavedPlan } = await import('../run/plan.js');
    const opened = await openSavedPlan({ cwd: this.context.cwd, planFile, config, open: () => this.openTenant(config) });
    if ('refused' in opened) {
      const { plan, what, reasons } = opened.refused;
      this.io.err([`error: the saved plan ${planFile} ${what}; nothing was applied:`, ...reasons.map((r) => `  - ${r}`), 'Make a new plan: roleflow plan --out FILE'].join('\n'));
      return this.result(ExitCode.Refused, plan, 'refused', [], reasons);
    }
    const { planSummaryLine } = await import('../core/plan/index.js');
    if (!this.json) this.io.out(`Applying the saved plan ${planFile} to tenant ${opened.plan.tenant.name}. ${planSummaryLine(opened.plan)}`);
    return opened;
  }

  private async carryOut(plan: Plan, tenant: OpenTenant, concurrency: number, protect: readonly string[]): Promise<number> {
    if (plan.changes.length === 0) return this.result(ExitCode.Ok, plan, 'no_changes');
    const [{ applyPlan }, { applyEnd, outcomeLine }] = await Promise.all([import('../run/apply-session.js'), import('../core/apply/index.js')]);
    const live = new LiveResults(this.context.stderr, this.canShowProgress(), (text) => this.io.out(text));
    this.io.showLiveLine(live);
    const interruption = this.interruption(() => {
      live.setStatus(undefined);
      this.io.err('Interrupted: waiting for the requests in flight; no new change starts (Ctrl-C again quits at once).');
    });
    live.count('applying', 0, plan.changes.length);
    const run = await applyPlan(plan, tenant.client, {
      concurrency,
      protect,
      stopped: () => interruption.aborted,
      onOutcome: (outcome, ended, total) => {
        live.count('applying', ended, total);
        if (!this.json) live.add(outcomeLine(outcome));
      },
    });
    live.finish();
    this.io.showLiveLine(undefined);
    const end = applyEnd(run);
    if (!this.json && end.out.length > 0) this.io.out(end.out.join('\n'));
    if (end.err.length > 0) this.io.err(end.err.join('\n'));
    return this.result(end.ok ? ExitCode.Ok : run.interrupted ? ExitCode.Interrupted : ExitCode.Error, plan, end.status, run.outcomes);
  }

  /** `code`, after `--json`'s result document (secrets masked in its values before it is serialised). */
  private async result(code: number, plan: Plan, status: ApplyRunStatus, outcomes: readonly ApplyOutcome[] = [], reasons: readonly string[] = []): Promise<number> {
    if (!this.json) return code;
    const { applyResultJson } = await import('../core/apply/index.js');
    this.io.outData({ tenant: plan.tenant, outcomes, reasons }, (clean) => applyResultJson(clean, status, clean.outcomes, clean.reasons));
    return code;
  }
}
