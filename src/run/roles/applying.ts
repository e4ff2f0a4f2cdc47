import { applyEnd, applyResultJson, outcomeLine, type ApplyOutcome, type ApplyRunStatus } from '../../core/apply/index.js';
import { RoleflowError } from '../../core/errors.js';
import type { Plan } from '../../core/plan/index.js';
import { quote } from '../../core/roles/display.js';
import { isTenantFailure, tenantError, tenantsApplyLine } from '../../core/tenants/index.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import type { Config } from '../../core/config/config.js';
import type { JournalCommand } from '../../core/apply/history/index.js';
import type { Role } from '../../core/model.js';
import { journalFor, withJournal, type JournalOptions } from '../journal.js';
import { LiveResults } from '../../terminal/live-results.js';
import { applyPlan } from './apply-session.js';
import { ExitCode, type Ports } from '../ports.js';

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
  /** `--allow`: overrides of plan policy for a saved plan, besides those it records. */
  allow?: readonly string[] | undefined;
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

/** A run over several tenants: those not attempted after the one it stopped at. */
export type SeveralTenants = { notAttempted: readonly string[] } | undefined;

export function ended(code: number, plan: Pick<Plan, 'tenant'>, status: ApplyRunStatus, outcomes: readonly ApplyOutcome[] = [], reasons: readonly string[] = []): TenantApplyEnd {
  return { code, plan, status, outcomes, reasons };
}

/**
 * Fresh plans (one, or one per tenant), shown, past their guards and approved: `'approved'` when
 * there is something to carry out, else how it ended for each (guards refuse: exit 4 for each
 * tenant they refuse, and nothing is sent anywhere; nothing to do: `No changes.`, exit 0; the user said no: exit 1).
 */
export async function approveFreshPlans(ports: Ports, plans: readonly Plan[], shown: string, flags: ApplyFlags): Promise<'approved' | TenantApplyEnd[]> {
  const { output } = ports;
  const changes = plans.some((p) => p.changes.length > 0);
  if (!flags.json) output.out(shown);
  else if (!flags.autoApprove && changes) output.err(shown);
  const refused = plans.filter((p) => p.guards.length > 0);
  if (refused.length > 0) {
    const named = plans.length > 1;
    output.err(refused.flatMap((p) => p.guards.map((g) => `error: ${named ? `tenant ${quote(p.tenant.name)}: ` : ''}${g.message}`)).join('\n'));
    // Only the tenants refused: the others of a run over several are not attempted (the caller says so).
    return refused.map((p) => ended(ExitCode.Refused, p, 'refused', [], p.guards.map((g) => g.message)));
  }
  if (!changes) return plans.map((p) => ended(ExitCode.Ok, p, 'no_changes'));
  if (flags.autoApprove) return 'approved';
  // Asked only once there is something to approve: nothing to do is `No changes.`, exit 0, in CI too.
  if (!ports.terminal.stdinIsTTY) throw new RoleflowError(`${NO_TTY} ${flags.saveAndApply ?? SAVE_AND_APPLY}`, 'usage');
  if (await ports.terminal.confirm(QUESTION)) return 'approved';
  output.err('Apply cancelled: nothing was changed.');
  return plans.map((p) => ended(ExitCode.Error, p, 'cancelled'));
}

/**
 * Carry out `plan` on `tenant`: a line per Role as each ends, the closing lines (naming the tenant
 * on stderr when `several`: a run over several tenants), Ctrl-C honoured.
 */
export async function carryOutPlan(ports: Ports, plan: Plan, tenant: OpenTenant, flags: ApplyFlags, several = false, remote?: readonly Role[]): Promise<TenantApplyEnd> {
  const { output } = ports;
  const journal = await journalOf(ports, plan, tenant, flags);
  const listed = remote ?? (() => tenant.client.listRoles());
  if (plan.changes.length === 0) {
    // Nothing to send; the journal learns the state the tenant was found in, when that is news to it.
    const checked = await withJournal(plan, listed, journal, () => Promise.resolve({ outcomes: [], interrupted: false }));
    return ended(checked.journal.error === undefined ? ExitCode.Ok : ExitCode.Error, plan, 'no_changes', [], checked.journal.error === undefined ? [] : [checked.journal.error]);
  }
  const live = new LiveResults(ports.terminal.statusLine(), (text) => output.out(text));
  output.showLiveLine(live);
  const interruption = ports.interruption(() => {
    live.setStatus(undefined);
    output.err('Interrupted: waiting for the requests in flight; no new change starts (Ctrl-C again quits at once).');
  });
  live.count('applying', 0, plan.changes.length);
  const run = await withJournal(plan, listed, journal, () =>
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
  output.showLiveLine(undefined);
  const end = applyEnd(run, several ? plan.tenant.name : undefined);
  if (!flags.json && end.out.length > 0) output.out(end.out.join('\n'));
  if (end.err.length > 0) output.err(end.err.join('\n'));
  // A journal that could not be completed is an error, whatever the apply did.
  const code = !end.ok ? (run.interrupted ? ExitCode.Interrupted : ExitCode.Error) : run.journal.error !== undefined ? ExitCode.Error : ExitCode.Ok;
  return ended(code, plan, end.status, run.outcomes, run.journal.error === undefined ? [] : [run.journal.error]);
}

/** The journal of this apply: the command's, except that a saved plan `rollback --out` made is journalled as that rollback. */
function journalOf(ports: Ports, plan: Plan, tenant: OpenTenant, flags: ApplyFlags): Promise<JournalOptions> {
  const saved = plan.rollback_of === undefined ? {} : { command: 'rollback' as const, rollbackOf: plan.rollback_of, commit: /^[0-9a-f]{40,64}$/.test(plan.rollback_of) ? plan.rollback_of : null };
  const { config, command, rollbackOf, commit } = { ...flags.journal, ...saved };
  return journalFor(ports.cwd, ports.env, config, tenant, command, (line) => ports.output.err(line), {
    ...(rollbackOf !== undefined && { rollbackOf }),
    ...(commit !== undefined && { commit, dirty: false }),
  });
}

/**
 * The exit code of an apply (the first tenant's that did not end with 0, else 0), after the
 * closing line of a run over several tenants and `--json`'s document.
 */
export function finishApply(ports: Ports, ends: readonly TenantApplyEnd[], several: SeveralTenants, json: boolean): number {
  if (several !== undefined) {
    const line = tenantsApplyLine(ends.map((e) => ({ tenant: e.plan.tenant.name, status: e.status })), several.notAttempted);
    const ok = ends.every((e) => e.code === ExitCode.Ok);
    if (ok && !json) ports.output.out(line);
    else if (!ok) ports.output.err(line);
  }
  if (json) printApplyJson(ports, ends, several);
  return ends.find((e) => e.code !== ExitCode.Ok)?.code ?? ExitCode.Ok;
}

/**
 * `--json`'s result: for one tenant, `apply --json`'s document as before; for several,
 * `{format_version, tenants: [<result>…], not_attempted: [names]}`.
 */
export function printApplyJson(ports: Ports, ends: readonly TenantApplyEnd[], several: SeveralTenants): void {
  const one = (e: TenantApplyEnd): unknown => JSON.parse(applyResultJson(e.plan, e.status, e.outcomes, e.reasons));
  if (several === undefined && ends.length === 1) {
    const e = ends[0]!;
    ports.output.data({ tenant: e.plan.tenant, outcomes: e.outcomes, reasons: e.reasons }, (clean) => applyResultJson(clean, e.status, clean.outcomes, clean.reasons));
    return;
  }
  ports.output.json({ format_version: 1, tenants: ends.map(one), not_attempted: several?.notAttempted ?? [] });
}

/**
 * One tenant's turn in a run over several: its failure (unreachable, refusing the token, a
 * failing answer) ends its turn, named, rather than the run, so the closing line and `--json`'s
 * document still say which tenants were done and which were not attempted.
 */
export async function tenantTurn(ports: Ports, plan: Plan, turn: () => Promise<TenantApplyEnd>): Promise<TenantApplyEnd> {
  try {
    return await turn();
  } catch (error) {
    if (!isTenantFailure(error)) throw error;
    const named = tenantError(plan.tenant.name, error);
    ports.output.err(`error: ${named.message}`);
    return ended(named.exitCode, plan, 'failed', [], [error.message]);
  }
}

/** A tenant's `=== tenant NAME ===` heading in a run over several (none under `--json`). */
export function tenantHeading(ports: Ports, name: string, json: boolean): void {
  if (!json) ports.output.out(`=== tenant ${name} ===`);
}
