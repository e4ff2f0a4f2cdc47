import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { renderPlanText } from '../../core/plan/index.js';
import { shellWord } from '../../core/roles/display.js';
import { savePlan } from '../../files/plan-file.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { approveFreshPlans, carryOutPlan, printApplyJson, type ApplyFlags } from '../roles/applying.js';
import { openOneTenant, type TenantOptions } from '../tenants.js';
import { lastState, type JournalRecord } from '../../core/apply/history/index.js';
import { escapeVars, quote, type RoleFile } from '../../core/roles/index.js';
import { loadCommitRoles } from '../../files/git/commit-roles.js';
import { resolveCommit } from '../../files/git/git-tree.js';
import { rolesDirOf } from '../../files/role-files.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { findRecord } from './history.js';
import { openJournal, readRecords } from '../journal.js';
import { makeFreshPlan, type FreshPlan } from '../roles/fresh-plan.js';
import { commitsBefore, RoleContents } from './role-contents.js';

export interface RollbackOptions extends CommonOptions, TenantOptions {
  /** `--to`: a journal record id (or the start of one), else a commit git knows. */
  to: string;
  prune?: boolean | undefined;
  allowEmptyPrune?: boolean | undefined;
  /** `--out FILE`: save the plan instead of applying it. */
  out?: string | undefined;
  autoApprove: boolean;
  concurrency?: number | undefined;
  json: boolean;
}

/**
 * `roleflow rollback --to ID|COMMIT`: the plan back (`planRollback`), shown; with `--out` saved
 * for `apply FILE` (not when guards refuse it), else approved and carried out as `apply` does,
 * journalled with `rollback_of`.
 */
export async function rollback(options: RollbackOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  if (options.out === '-') throw new RoleflowError('--out -: a saved plan must be a file', 'usage');
  const config = await configOf(options, ports);
  const planned = await planRollback(
    { cwd: ports.cwd, config, to: options.to, prune: options.prune, allowEmptyPrune: options.allowEmptyPrune === true, now: ports.clock.now() },
    { open: () => openOneTenant(ports, config, options, 'rollback'), warn: (line) => output.err(line) },
  );
  const { plan, tenant } = planned;
  if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
  output.err(`Rolling tenant ${tenant.target.name} back to ${planned.target}.`);
  const shown = renderPlanText(plan, { color: output.color(options.json || options.out !== undefined ? 'stderr' : 'stdout'), rolesDir: planned.target });
  if (options.out !== undefined) {
    await tenant.close();
    output.out(shown);
    if (plan.guards.length > 0) {
      output.err([...plan.guards.map((g) => `error: ${g.message}`), `The plan was not saved to ${options.out}: guards refuse it.`].join('\n'));
      return ExitCode.Refused;
    }
    await savePlan(resolve(ports.cwd, options.out), plan);
    output.err(`Saved the plan to ${options.out}. To carry out exactly this plan: roleflow apply ${options.out}`);
    return ExitCode.Ok;
  }
  const flags: ApplyFlags = {
    json: options.json,
    autoApprove: options.autoApprove,
    concurrency: options.concurrency ?? config.roles.concurrency,
    protect: config.roles.protect,
    saveAndApply: `roleflow rollback --to ${shellWord(options.to)} --out plan.json && roleflow apply plan.json`,
    journal: { config, command: 'rollback', rollbackOf: planned.rollbackOf, commit: planned.commit },
  };
  const approved = await approveFreshPlans(ports, [plan], shown, flags);
  // Nothing to do goes through too: the journal learns the state the tenant was found in.
  const ends = approved === 'approved' || approved[0]?.status === 'no_changes' ? [await carryOutPlan(ports, plan, tenant, flags, false, planned.remote)] : approved;
  if (options.json) printApplyJson(ports, ends, undefined);
  return ends[0]!.code;
}

/** Where `planRollback` goes back to, and how. */
export interface RollbackTargetOptions {
  cwd: string;
  config: Config;
  /** `--to`: a journal record id (or the start of one), else a commit git knows. */
  to: string;
  prune: boolean | undefined;
  allowEmptyPrune: boolean;
  now: Date;
}

export interface RollbackPorts {
  open(): Promise<OpenTenant>;
  warn(line: string): void;
}

/** A rollback's plan, and what it goes back to: the record's id or the commit (`rollback_of`), and the commit whose files it applies. */
export interface RollbackPlan extends FreshPlan {
  rollbackOf: string;
  /** What the plan goes back to, in words: `commit 1a2b3c4 (v1.2)`, `the tenant before record …`. */
  target: string;
  /** The commit whose role files are applied; null when the Roles come from the journal. */
  commit: string | null;
}

/**
 * `rollback --to ID|COMMIT`: an ordinary plan whose role files are those of COMMIT (its files,
 * variables and `tenants:`, read with git), or the Roles the tenant held right before record ID
 * (each Role's fields from the content the journal kept, else from the role files of the commits
 * it names). Every guard of a plan applies; deletes only with prune. An ID or commit that does not
 * exist, or a Role whose content cannot be found, stops it before anything is sent (exit 1).
 */
export async function planRollback(opts: RollbackTargetOptions, ports: RollbackPorts): Promise<RollbackPlan> {
  const tenant = await ports.open();
  let target: { files: RoleFile[]; config: Config; rollbackOf: string; target: string; commit: string | null };
  try {
    const { records } = await readRecords(openJournal(opts.cwd, opts.config, tenant), ports.warn);
    target = await rollbackTarget(opts, records, tenant.target.name);
  } catch (err) {
    await tenant.close();
    throw err;
  }
  const fresh = await makeFreshPlan({
    cwd: opts.cwd,
    config: target.config,
    rolesDir: rolesDirOf(opts.cwd, opts.config, undefined),
    prune: opts.prune,
    allowEmptyPrune: opts.allowEmptyPrune,
    open: () => Promise.resolve(tenant),
    now: opts.now,
    files: Promise.resolve({ ok: true, value: target.files }),
  });
  // Saved with the plan (and under its digest): `apply PLANFILE` journals it as this rollback.
  fresh.plan.rollback_of = target.rollbackOf;
  return { ...fresh, rollbackOf: target.rollbackOf, target: target.target, commit: target.commit };
}

async function rollbackTarget(opts: RollbackTargetOptions, records: readonly JournalRecord[], tenant: string) {
  const exact = records.findIndex((r) => r.id === opts.to);
  if (exact !== -1) return recordTarget(opts, records, exact, tenant);
  const commit = await resolveCommit(opts.cwd, opts.to).catch(() => undefined);
  const prefixed = records.filter((r) => opts.to !== '' && r.id.startsWith(opts.to));
  if (commit !== undefined && prefixed.length > 0) {
    throw new RoleflowError(`${quote(opts.to)} names both commit ${commit.commit.slice(0, 12)} and journal record ${prefixed[0]!.id}: give the whole id, or more of the commit`, 'usage');
  }
  if (commit !== undefined) {
    const at = await loadCommitRoles(opts.cwd, opts.config, opts.to, undefined);
    return { files: at.files, config: at.config, rollbackOf: at.at.commit, target: `commit ${at.at.commit.slice(0, 7)} (${opts.to})`, commit: at.at.commit };
  }
  if (prefixed.length === 0) {
    throw new RoleflowError(`${quote(opts.to)} is neither a journal record of tenant ${quote(tenant)} (roleflow history lists them) nor a commit of this repository`, 'usage');
  }
  return recordTarget(opts, records, findRecord(records, opts.to, tenant), tenant);
}

/** The Roles right before record `index`: its state (or the one before it) with its changes undone, each Role's fields found. */
async function recordTarget(opts: RollbackTargetOptions, records: readonly JournalRecord[], index: number, tenant: string) {
  const record = records[index]!;
  const state = new Map(Object.entries(record.state ?? lastState(records.slice(0, index)) ?? {}));
  const pinned = new Map<string, string>();
  for (const change of [...record.changes].reverse()) {
    state.delete(change.name);
    if (change.action === 'create' || change.before_sha256 === undefined) continue;
    const name = change.renamed_from ?? change.name;
    state.set(name, change.before_sha256);
    // A rename is undone by renaming the same Role back, not by a create beside it.
    if (change.renamed_from !== undefined && change.id !== undefined) pinned.set(name, change.id);
  }
  const contents = new RoleContents(opts.cwd, opts.config, tenant, records);
  const commits = commitsBefore(records, index);
  const files: RoleFile[] = [];
  const unknown: string[] = [];
  for (const [name, sha] of [...state.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const fields = await contents.find(sha, commits);
    if (fields === undefined) {
      unknown.push(name);
      continue;
    }
    const id = pinned.get(name);
    // The fields as the tenant held them: escaped, so that rendering the variables gives them back.
    files.push({ file: `record ${record.id}: ${name}`, name: fields.name, description: escapeVars(fields.description), content: escapeVars(fields.content), ...(id !== undefined && { id }), at: { name: { line: 1, col: 1 } } });
  }
  if (unknown.length > 0) {
    throw new RoleflowError(
      `cannot roll tenant ${quote(tenant)} back to before record ${record.id}: the content of ${unknown.map((n) => quote(n)).join(', ')} is neither kept by the journal nor in the role files of the commits it names (roleflow rollback --to COMMIT goes back to a commit's files)`,
    );
  }
  return { files, config: opts.config, rollbackOf: record.id, target: `the tenant before record ${record.id}`, commit: null };
}
