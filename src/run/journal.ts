import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { ApplyOutcome } from '../core/apply/index.js';
import type { Config } from '../core/config/config.js';
import { secretScanner } from '../core/config/policy/index.js';
import { RoleflowError } from '../core/errors.js';
import {
  finishedRecord,
  lastState,
  readJournal,
  recordId,
  recordLine,
  startedRecord,
  stateAfter,
  type JournalCommand,
  type JournalDraft,
  type JournalMeta,
  type JournalRecord,
  type JournalStore,
  type ReadJournal,
} from '../core/apply/history/index.js';
import type { Role } from '../core/model.js';
import type { Plan } from '../core/plan/index.js';
import { currentBranch, currentCommit, gitUserName, treeState } from '../files/git/git-commit.js';
import { fileJournal } from '../files/journal-file.js';
import { rolesDirOf } from '../files/role-files.js';
import { tenantJournal } from '../tenant/journal-role.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import { makeRedactor } from '../core/text/redact.js';
import { configuredSecrets } from './ports.js';

/** Where tenant `tenant`'s journal is, as the config says (`history.store`). */
export function openJournal(cwd: string, config: Config, tenant: OpenTenant): JournalStore {
  return config.history.store === 'tenant' ? tenantJournal(tenant.client, config.history.keep) : fileJournal(cwd, config, tenant.target.name);
}

/**
 * Who applies, from where: `GITHUB_ACTOR`, else `git config user.name`, else `USER`; the commit
 * (`GITHUB_SHA`, else HEAD) unless `commit` says which commit's files are applied; `GITHUB_REF`,
 * else the branch; the workflow run's URL in GitHub Actions; and whether the role files or the
 * config differ from the commit (`dirty`, unless given).
 */
export async function journalMeta(
  cwd: string,
  env: Record<string, string | undefined>,
  config: Config,
  given: { commit?: string | null; dirty?: boolean; roles?: string | undefined } = {},
): Promise<JournalMeta> {
  const actor = env['GITHUB_ACTOR'] || (await gitUserName(cwd)) || env['USER'] || env['USERNAME'] || 'unknown';
  const commit = given.commit !== undefined ? given.commit : ((await currentCommit(cwd, env)).commit ?? null);
  const ref = env['GITHUB_REF'] || (await currentBranch(cwd)) || null;
  const server = env['GITHUB_SERVER_URL'] || 'https://github.com';
  const run_url = env['GITHUB_REPOSITORY'] && env['GITHUB_RUN_ID'] ? `${server}/${env['GITHUB_REPOSITORY']}/actions/runs/${env['GITHUB_RUN_ID']}` : null;
  let dirty = given.dirty ?? false;
  if (given.dirty === undefined && commit !== null) {
    const paths = [rolesDirOf(cwd, config, given.roles).abs, ...(config.file === undefined ? [] : [resolve(cwd, config.file)])];
    const state = await treeState(cwd, paths);
    dirty = state === undefined || state.uncommitted.length > 0 || state.ignored.length > 0 || state.outside.length > 0;
  }
  return { actor, commit, ref, run_url, dirty };
}

/**
 * The journal options of an apply to `tenant` by `command`: its store as the config says, and who
 * applies from where (`journalMeta`; `given` overrides the commit and whether it is dirty).
 */
export async function journalFor(
  cwd: string,
  env: Record<string, string | undefined>,
  config: Config,
  tenant: OpenTenant,
  command: JournalCommand,
  warn: (line: string) => void,
  given: { commit?: string | null; dirty?: boolean; roles?: string | undefined; rollbackOf?: string; preview?: boolean } = {},
): Promise<JournalOptions> {
  const { rollbackOf, preview, ...meta } = given;
  const secrets = secretScanner(env, config);
  // The scanner leaves out short values; the tenant's token is masked whatever its length, as in every output.
  const redactor = makeRedactor([...tenant.secrets, ...configuredSecrets(env, config)]);
  return {
    store: openJournal(cwd, config, tenant),
    command,
    meta: await journalMeta(cwd, env, config, meta),
    warn,
    holdsSecret: (text) => secrets.holds(text) || redactor.text(text) !== text,
    maskSecrets: (text) => secrets.mask(redactor.text(text)),
    ...(rollbackOf !== undefined && { rollbackOf }),
    ...(preview === true && { preview }),
  };
}

/** What a journalled apply is, besides its plan. */
export interface JournalOptions {
  store: JournalStore;
  command: JournalCommand;
  meta: JournalMeta;
  rollbackOf?: string;
  preview?: boolean;
  now?: () => Date;
  /** Whether a text holds a secret: the record keeps no such content. */
  holdsSecret?: (text: string) => boolean;
  /** A Role's name with its secrets masked, as the record keeps it. */
  maskSecrets?: (text: string) => string;
  /** Warnings for stderr: lines of the journal that are not records, a final line that could not be written. */
  warn: (line: string) => void;
}

/** How the journal of one apply went: its record's id, and the error that kept its last line from being written. */
export interface JournalEnd {
  id: string | undefined;
  error?: string;
}

/**
 * Carry out `apply` (which sends the plan's changes) with a journal record around it: the record's
 * `started` line is appended before anything is sent — a journal that cannot be read or written
 * stops here, nothing sent (exit 1) — and its final line after, with every change's outcome and
 * the state the tenant is left in (`interrupted` after Ctrl-C). A plan with no change sends
 * nothing and is recorded only when it tells the journal something new (a state it did not have).
 * `remote`: the tenant's Roles as listed for the plan (listed here when not given).
 */
export async function withJournal<R extends { outcomes: readonly ApplyOutcome[]; interrupted: boolean }>(
  plan: Plan,
  remote: readonly Role[] | (() => Promise<Role[]>),
  opts: JournalOptions,
  apply: () => Promise<R>,
): Promise<R & { journal: JournalEnd }> {
  const now = opts.now ?? (() => new Date());
  const { records: previous } = await readRecords(opts.store, opts.warn).catch((err: unknown) => {
    throw new RoleflowError(`${err instanceof Error ? err.message : String(err)}: nothing was applied (the journal is written before the first change)`);
  });
  const started = now();
  const draft: JournalDraft = {
    id: recordId(started, randomBytes(2).toString('hex')),
    time: started.toISOString(),
    meta: opts.meta,
    command: opts.command,
    plan,
    remote: typeof remote === 'function' ? await remote() : remote,
    previous,
    ...(opts.rollbackOf !== undefined && { rollbackOf: opts.rollbackOf }),
    ...(opts.preview === true && { preview: true }),
    ...(opts.holdsSecret !== undefined && { holdsSecret: opts.holdsSecret }),
    ...(opts.maskSecrets !== undefined && { maskSecrets: opts.maskSecrets }),
  };
  if (plan.changes.length === 0) {
    const result = await apply();
    const state = stateAfter(draft, []);
    if (JSON.stringify(state) === JSON.stringify(lastState(previous) ?? null)) return { ...result, journal: { id: undefined } };
    return { ...result, journal: await finish(opts, finishedRecord(draft, [], false, now().toISOString())) };
  }
  try {
    await opts.store.append(recordLine(startedRecord(draft)));
  } catch (err) {
    throw new RoleflowError(`${err instanceof Error ? err.message : String(err)}: nothing was applied (the journal is written before the first change)`);
  }
  const result = await apply();
  return { ...result, journal: await finish(opts, finishedRecord(draft, result.outcomes, result.interrupted, now().toISOString())) };
}

/** The final line appended; a failure is said (the record then reads as interrupted), not thrown: the apply is done. */
async function finish(opts: JournalOptions, record: JournalRecord): Promise<JournalEnd> {
  try {
    await opts.store.append(recordLine(record));
    return { id: record.id };
  } catch (err) {
    const error = `${err instanceof Error ? err.message : String(err)}: record ${record.id} was not completed and reads as interrupted`;
    opts.warn(`error: ${error}`);
    return { id: record.id, error };
  }
}

/** The journal's records, oldest first; lines that are not records are warned about and skipped. */
export async function readRecords(store: JournalStore, warn: (line: string) => void): Promise<ReadJournal> {
  const read = readJournal(await store.read());
  for (const s of read.skipped) warn(`warning: ${store.where}: line ${s.line} is not a journal record (${s.reason}): skipped`);
  return read;
}
