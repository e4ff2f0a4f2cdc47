import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { ApplyOutcome, ApplyRunStatus } from '../core/apply/index.js';
import type { Plan } from '../core/plan/index.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import { ExitCode } from '../core/exit-codes.js';
import { LiveResults } from '../terminal/live-results.js';
import { ProgressLine } from '../terminal/progress-line.js';
import { PlanningCommand } from './planning.js';

const QUESTION = "Apply these changes? Only 'yes' is accepted:";

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

      Changes run at most \`--concurrency\` at once (default \`roles.concurrency\`, 4), phase by phase:
      deletes that free a name, then updates, creates, other deletes. Failed requests are retried.
      A create is sent once: when its outcome is unknown (no answer in time, a 5xx) the tenant is
      re-listed over a settle window (twice the tenant's timeout), and a Role that has not appeared
      by then is reported \`? outcome unknown\`, never as created. Copies of a Role that another
      apply created at the same time are resolved afterwards: the lowest id stays. Every Role gets
      a result line; when some fail or are unknown it exits 1, and running \`apply\` again converges.
      Ctrl-C starts no new change and reports what was done.
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

  // One saved plan, or role files (`*.md`) whose Roles alone are applied.
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
    const { RoleflowError } = await import('../core/errors.js');
    if (this.args.length > 1 && this.args.some((a) => !a.endsWith('.md'))) {
      throw new RoleflowError(`apply takes one saved plan or role files (*.md), not ${this.args.filter((a) => !a.endsWith('.md')).join(', ')} among several`);
    }
    if (this.planFile !== undefined && this.target !== undefined) {
      throw new RoleflowError('--target does not go with a saved plan: make a partial plan with roleflow plan --target … --out FILE');
    }
    if (this.planFile !== undefined && (this.roles !== undefined || this.prune !== undefined)) {
      throw new RoleflowError('--roles and --prune do not go with a saved plan: it already says what to do');
    }
    if (this.planFile !== undefined && this.allowEmptyPrune) {
      throw new RoleflowError('--allow-empty-prune does not go with a saved plan: it already says what to do');
    }
    const config = await this.loadConfig();
    const prepared = this.planFile === undefined ? await this.freshPlan(config) : await this.savedPlan(config, this.planFile);
    if (typeof prepared === 'number') return prepared;
    const { plan, tenant } = prepared;
    try {
      return await this.carryOut(plan, tenant, this.concurrency ?? config.roles.concurrency, config.roles.protect);
    } finally {
      await tenant.close();
    }
  }

  private async freshPlan(config: import('../core/config.js').Config): Promise<{ plan: Plan; tenant: OpenTenant } | number> {
    const { InvalidFilesError, RoleflowError } = await import('../core/errors.js');
    const { renderPlanText } = await import('../core/plan/index.js');
    const fresh = await this.freshPlanOf(config, this.planFile === undefined ? this.args : []);
    const { plan, tenant, rolesDir } = fresh;
    const stop = async (code: number, status: ApplyRunStatus, reasons: string[] = []): Promise<number> => {
      await tenant.close();
      if (this.json) await this.outResult(plan, status, [], reasons);
      return code;
    };
    if (plan.issues.length > 0) {
      await tenant.close();
      throw new InvalidFilesError(plan.issues);
    }
    const shown = renderPlanText(plan, { color: this.colorFor(this.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
    if (!this.json) this.out(shown);
    else if (!this.autoApprove && plan.changes.length > 0) this.err(shown);
    if (plan.guards.length > 0) {
      for (const guard of plan.guards) this.err(`error: ${guard.message}`);
      return stop(ExitCode.Refused, 'refused', plan.guards.map((g) => g.message));
    }
    if (plan.changes.length === 0) return stop(ExitCode.Ok, 'no_changes');
    // Asked only once there is something to approve: nothing to do is `No changes.`, exit 0, in CI too.
    if (!this.autoApprove && !this.context.stdinIsTTY) {
      await tenant.close();
      throw new RoleflowError(
        'refusing to apply without confirmation: stdin is not a terminal. Add --auto-approve, or save a plan for review and apply it: roleflow plan --out plan.json && roleflow apply plan.json',
      );
    }
    if (!this.autoApprove) {
      const { confirm } = await import('../terminal/prompt.js');
      if (!(await confirm(this.context.stdin, this.context.stderr, QUESTION))) {
        this.err('Apply cancelled: nothing was changed.');
        return stop(ExitCode.Error, 'cancelled');
      }
    }
    return fresh;
  }

  private async savedPlan(config: import('../core/config.js').Config, planFile: string): Promise<{ plan: Plan; tenant: OpenTenant } | number> {
    const { openSavedPlan } = await import('../run/plan.js');
    const opened = await openSavedPlan({ cwd: this.context.cwd, planFile, config, open: () => this.openTenant(config) });
    if ('refused' in opened) {
      const { plan, what, reasons } = opened.refused;
      this.err(`error: the saved plan ${planFile} ${what}; nothing was applied:`);
      for (const reason of reasons) this.err(`  - ${reason}`);
      this.err('Make a new plan: roleflow plan --out FILE');
      if (this.json) await this.outResult(plan, 'refused', [], reasons);
      return ExitCode.Refused;
    }
    if (!this.json) {
      const { planSummaryLine } = await import('../core/plan/index.js');
      this.out(`Applying the saved plan ${planFile} to tenant ${opened.plan.tenant.name}. ${planSummaryLine(opened.plan)}`);
    }
    return opened;
  }

  /** While changes run on a terminal: their results and status line, wiped around a diagnostic. */
  private live: LiveResults | undefined;

  /** A diagnostic (a retry, a create being watched) never lands on the end of the status line. */
  override err(text: string): void {
    if (this.live === undefined) super.err(text);
    else this.live.interject(() => super.err(text));
  }

  private async carryOut(plan: Plan, tenant: OpenTenant, concurrency: number, protect: readonly string[]): Promise<number> {
    if (plan.changes.length === 0) {
      if (this.json) await this.outResult(plan, 'no_changes', []);
      return ExitCode.Ok;
    }
    const { applyPlan } = await import('../run/apply-session.js');
    const { applySucceeded, applySummaryLine, duplicateLine, outcomeLine, summarizeOutcomes, unknownOutcomeNote } = await import('../core/apply/index.js');
    const progress = new ProgressLine(this.context.stderr, this.canShowProgress());
    this.showLiveLine(progress);
    const live = (this.live = new LiveResults(progress, (text) => this.out(text)));
    const interruption = this.interruption(() => {
      live.setStatus(undefined);
      this.err('Interrupted: waiting for the requests in flight; no new change starts (Ctrl-C again quits at once).');
    });
    live.setStatus(`applying 0/${plan.changes.length}…`);
    const run = await applyPlan(plan, tenant.client, {
      concurrency,
      protect,
      stopped: () => interruption.aborted,
      onOutcome: (outcome, ended, total) => {
        live.setStatus(ended < total ? `applying ${ended}/${total}…` : undefined);
        if (!this.json) live.add(outcomeLine(outcome));
      },
    });
    live.finish();
    this.live = undefined;
    if (run.warning !== undefined) this.err(`warning: ${run.warning}`);
    if (!this.json && run.resolved.length > 0) this.out(run.resolved.map(duplicateLine).join('\n'));

    const summary = summarizeOutcomes(run.outcomes);
    const ok = applySucceeded(summary);
    const line = applySummaryLine(summary, run.interrupted);
    if (this.json) await this.outResult(plan, ok ? 'applied' : run.interrupted ? 'interrupted' : 'failed', run.outcomes);
    if (ok) {
      if (!this.json) this.out(line);
      return ExitCode.Ok;
    }
    this.err(line);
    for (const o of run.outcomes) if (!['created', 'updated', 'deleted'].includes(o.status)) this.err(`  ${outcomeLine(o)}`);
    if (summary.unknown > 0) this.err(unknownOutcomeNote(summary.unknown));
    this.err('Run `roleflow apply` again: it plans from the tenant as it is now, so it converges.');
    return run.interrupted ? ExitCode.Interrupted : ExitCode.Error;
  }

  /** `--json`: the result document, secrets masked in its values before it is serialised. */
  private async outResult(plan: Plan, status: ApplyRunStatus, outcomes: readonly ApplyOutcome[], reasons: readonly string[] = []): Promise<void> {
    const { applyResultJson } = await import('../core/apply/index.js');
    this.outData({ tenant: plan.tenant, outcomes, reasons }, (clean) => applyResultJson(clean, status, clean.outcomes, clean.reasons));
  }
}
