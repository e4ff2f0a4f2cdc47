import type { ApplyOutcome, ApplyRunStatus } from '../../core/apply/index.js';
import { RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { quote } from '../../core/roles/display.js';
import type { Plan } from '../../core/plan/index.js';
import type { Config } from '../../core/config.js';
import type { JournalCommand } from '../../core/history/index.js';
import type { Role } from '../../core/model.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { LiveResults } from '../../terminal/live-results.js';
import type { TenantAccessCommand } from '../tenant-command.js';

/**
 * What `apply` and `promote` share: showing a fresh plan and asking for it, carrying a plan out
 * with a line per Role, and the `--json` result of each tenant.
 */

const QUESTION = "Apply these changes? Only 'yes' is accepted:";
const NO_TTY = 'refusing to apply without confirmation: stdin is not a terminal. Add --auto-approve, or save a plan for review and apply it:';
const SAVE_AND_APPLY = 'roleflow plan --out plan.json && roleflow apply plan.json';

export interface ApplyFlags {
  json: boolean;
  autoApprove: boolean;
  concurrency: number;
  protect: readonly string[];
  /** The commands that save the plan for review and carry it out, for the refusal off a terminal (default `plan --out`, `apply`). */
  saveAndApply?: string;
  /** How the apply is journalled: the config (where the journal is), the command, and for a rollback what it goes back to. */
  journal: { config: Config; command: JournalCommand; rollbackOf?: string; commit?: string | null };
}

/** How one tenant's apply ended: its exit code and what `--json` says of it. */
export interface TenantApplyEnd {
  code: number;
  plan: Pick<Plan, 'tenant'>;
  status: ApplyRunStatus;
  outcomes: readonly ApplyOutcome[];
  reasons: readonly string[];
}

export function ended(code: number, plan: Pick<Plan, 'tenant'>, status: ApplyRunStatus, outcomes: readonly ApplyOutcome[] = [], reasons: readonly string[] = []): TenantApplyEnd {
  return { code, plan, status, outcomes, reasons };
}

/**
 * Fresh plans (one, or one per tenant), shown, past their guards and approved: `'approved'` when
 * there is something to carry out, else how it ended for each (guards refuse: exit 4 for each
 * tenant they refuse, and nothing is sent anywhere; nothing to do: `No changes.`, exit 0; the user said no: exit 1).
 */
export async function approveFreshPlans(command: TenantAccessCommand, plans: readonly Plan[], shown: string, flags: ApplyFlags): Promise<'approved' | TenantApplyEnd[]> {
  const changes = plans.some((p) => p.changes.length > 0);
  if (!flags.json) command.io.out(shown);
  else if (!flags.autoApprove && changes) command.io.err(shown);
  const refused = plans.filter((p) => p.guards.length > 0);
  if (refused.length > 0) {
    const named = plans.length > 1;
    command.io.err(refused.flatMap((p) => p.guards.map((g) => `error: ${named ? `tenant ${quote(p.tenant.name)}: ` : ''}${g.message}`)).join('\n'));
    // Only the tenants refused: the others of a run over several are not attempted (the caller says so).
    return refused.map((p) => ended(ExitCode.Refused, p, 'refused', [], p.guards.map((g) => g.message)));
  }
  if (!changes) return plans.map((p) => ended(ExitCode.Ok, p, 'no_changes'));
  if (flags.autoApprove) return 'approved';
  // Asked only once there is something to approve: nothing to do is `No changes.`, exit 0, in CI too.
  if (!command.context.stdinIsTTY) throw new RoleflowError(`${NO_TTY} ${flags.saveAndApply ?? SAVE_AND_APPLY}`, 'usage');
  const { confirm } = await import('../../terminal/prompt.js');
  if (await confirm(command.context.stdin, command.context.stderr, QUESTION)) return 'approved';
  command.io.err('Apply cancelled: nothing was changed.');
  return plans.map((p) => ended(ExitCode.Error, p, 'cancelled'));
}

/**
 * Carry out `plan` on `tenant`: a line per Role as each ends, the closing lines (naming the tenant
 * on stderr when `several`: a run over several tenants), Ctrl-C honoured.
 */
export async function carryOutPlan(command: TenantAccessCommand, plan: Plan, tenant: OpenTenant, flags: ApplyFlags, several = false, remote?: readonly Role[]): Promise<TenantApplyEnd> {
  const [{ applyPlan }, { applyEnd, outcomeLine }, { journalFor, withJournal }] = await Promise.all([import('../../run/apply-session.js'), import('../../core/apply/index.js'), import('../../run/journal.js')]);
  // A saved plan that `rollback --out` made is journalled as that rollback (a commit's files, or the journal's content).
  const saved = plan.rollback_of === undefined ? {} : { command: 'rollback' as const, rollbackOf: plan.rollback_of, commit: /^[0-9a-f]{40,64}$/.test(plan.rollback_of) ? plan.rollback_of : null };
  const { config, command: verb, rollbackOf, commit } = { ...flags.journal, ...saved };
  const journal = await journalFor(command.context.cwd, command.context.env, config, tenant, verb, (line) => command.io.err(line), {
    ...(rollbackOf !== undefined && { rollbackOf }),
    ...(commit !== undefined && { commit, dirty: false }),
  });
  if (plan.changes.length === 0) {
    // Nothing to send; the journal learns the state the tenant was found in, when that is news to it.
    const checked = await withJournal(plan, remote ?? (() => tenant.client.listRoles()), journal, () => Promise.resolve({ outcomes: [], interrupted: false }));
    return ended(checked.journal.error === undefined ? ExitCode.Ok : ExitCode.Error, plan, 'no_changes', [], checked.journal.error === undefined ? [] : [checked.journal.error]);
  }
  const live = new LiveResults(command.context.stderr, command.canShowProgress(), (text) => command.io.out(text));
  command.io.showLiveLine(live);
  const interruption = command.interruption(() => {
    live.setStatus(undefined);
    command.io.err('Interrupted: waiting for the requests in flight; no new change starts (Ctrl-C again quits at once).');
  });
  live.count('applying', 0, plan.changes.length);
  const run = await withJournal(plan, remote ?? (() => tenant.client.listRoles()), journal, () =>
    applyPlan(plan, tenant.client, {
      concurrency: flags.concurrency,
      protect: flags.protect,
      stopped: () => interruption.aborted,
      onOutcome: (outcome, done, total) => {
        live.count('applying', done, total);
        if (!flags.json) live.add(outcomeLine(outcome));
      },
    }),
  );
  live.finish();
  command.io.showLiveLine(undefined);
  const end = applyEnd(run, several ? plan.tenant.name : undefined);
  if (!flags.json && end.out.length > 0) command.io.out(end.out.join('\n'));
  if (end.err.length > 0) command.io.err(end.err.join('\n'));
  // A journal that could not be completed is an error, whatever the apply did.
  const code = !end.ok ? (run.interrupted ? ExitCode.Interrupted : ExitCode.Error) : run.journal.error !== undefined ? ExitCode.Error : ExitCode.Ok;
  return ended(code, plan, end.status, run.outcomes, run.journal.error === undefined ? [] : [run.journal.error]);
}

/**
 * `--json`'s result: for one tenant, `apply --json`'s document as before; for several,
 * `{format_version, tenants: [<result>…], not_attempted: [names]}`.
 */
export async function printApplyJson(command: TenantAccessCommand, ends: readonly TenantApplyEnd[], several: { notAttempted: readonly string[] } | undefined): Promise<void> {
  const { applyResultJson } = await import('../../core/apply/index.js');
  const one = (e: TenantApplyEnd): unknown => JSON.parse(applyResultJson(e.plan, e.status, e.outcomes, e.reasons));
  if (several === undefined && ends.length === 1) {
    const e = ends[0]!;
    command.io.outData({ tenant: e.plan.tenant, outcomes: e.outcomes, reasons: e.reasons }, (clean) => applyResultJson(clean, e.status, clean.outcomes, clean.reasons));
    return;
  }
  command.io.outJson({ format_version: 1, tenants: ends.map(one), not_attempted: several?.notAttempted ?? [] });
}

/**
 * One tenant's turn in a run over several: its failure (unreachable, refusing the token, a
 * failing answer) ends its turn, named, rather than the run, so the closing line and `--json`'s
 * document still say which tenants were done and which were not attempted.
 */
export async function tenantTurn(command: TenantAccessCommand, plan: Plan, turn: () => Promise<TenantApplyEnd>): Promise<TenantApplyEnd> {
  const { isTenantFailure, tenantError } = await import('../../core/tenants/index.js');
  try {
    return await turn();
  } catch (error) {
    if (!isTenantFailure(error)) throw error;
    const named = tenantError(plan.tenant.name, error);
    command.io.err(`error: ${named.message}`);
    return ended(named.exitCode, plan, 'failed', [], [error.message]);
  }
}
