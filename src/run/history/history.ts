import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { HISTORY_FORMAT_VERSION, HISTORY_ROLE, recordDocument, renderHistoryText, renderRecordText, type HistoryDocument, type JournalRecord, type JournalStore, type ReadJournal, type ShownSide } from '../../core/apply/history/index.js';
import { quote, showName } from '../../core/roles/index.js';
import { fileJournal } from '../../files/journal-file.js';
import { tenantNameOf, type OpenTenant } from '../../tenant/open-tenant.js';
import { configOf, configuredSecrets, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { oneTenant, openOneTenant, type TenantOptions } from '../tenants.js';
import { selectTenants } from '../../core/tenants/select.js';
import { openJournal, readRecords } from '../journal.js';
import { commitsBefore, RoleContents } from './role-contents.js';

export interface HistoryPorts {
  /** Opens the tenant; asked only when the journal is kept there (`history.store: tenant`). */
  open(name: string): Promise<OpenTenant>;
  warn(line: string): void;
  /** Throws (one line, with a guess) when the config does not know this tenant. */
  known?: (tenant: string) => void;
}

/**
 * Tenant `tenant`'s journal records, oldest first, and where it is kept. A journal kept in a file
 * is read without asking the tenant (no token needed); one kept in the tenant is read from it (a GET).
 */
export async function journalRecords(cwd: string, config: Config, tenant: string, ports: HistoryPorts): Promise<ReadJournal & { store: JournalStore }> {
  if (config.history.store === 'file') {
    const store = fileJournal(cwd, config, tenant);
    const read = await readRecords(store, ports.warn);
    // No journal, and a name the config does not know: a typo, said as every command says it.
    // (A journal left by a tenant since removed from the config is still read.)
    if (read.records.length === 0 && read.skipped.length === 0) ports.known?.(tenant);
    return { ...read, store };
  }
  const open = await ports.open(tenant);
  try {
    const store = openJournal(cwd, config, open);
    return { ...(await readRecords(store, ports.warn)), store };
  } finally {
    await open.close();
  }
}

export interface HistoryOptions extends CommonOptions, TenantOptions {
  /** `--limit N`: the newest N records. */
  limit: number;
  json: boolean;
}

/** `roleflow history`: the tenant's newest records, newest first, as a table (`--json`: `schemas/history.schema.json`). */
export async function history(options: HistoryOptions, ports: Ports): Promise<number> {
  const { config, tenant, reader } = await journalOf(options, ports, 'history');
  const doc = await historyDocument({ cwd: ports.cwd, config, tenant, limit: options.limit }, reader);
  if (options.json) ports.output.json(doc);
  else ports.output.out(renderHistoryText(doc));
  return ExitCode.Ok;
}

export interface HistoryShowOptions extends CommonOptions, TenantOptions {
  /** A record id, or the start of exactly one. */
  id: string;
  diff: boolean;
  json: boolean;
}

/** `roleflow history show ID [--diff]`: one record, with its content diffs when asked. */
export async function historyShow(options: HistoryShowOptions, ports: Ports): Promise<number> {
  const { config, tenant, reader } = await journalOf(options, ports, 'history show');
  const shown = await showRecord({ cwd: ports.cwd, config, tenant, id: options.id, diff: options.diff }, reader);
  if (options.json) ports.output.json(recordDocument(tenant, shown.record, shown.diffs));
  else ports.output.out(renderRecordText(shown.record, shown.diffs));
  return ExitCode.Ok;
}

/** The config, the tenant's name as the options give it, and how its journal is read (the tenant opened only for `history.store: tenant`). */
async function journalOf(options: CommonOptions & TenantOptions, ports: Ports, verb: string): Promise<{ config: Config; tenant: string; reader: HistoryPorts }> {
  const config = await configOf(options, ports);
  // A journal kept in a file is read without opening the tenant: what it holds is masked all the same.
  ports.output.addSecrets(configuredSecrets(ports.env, config));
  const tenant = tenantNameOf(config, { tenant: oneTenant(options, ports, verb), baseUrl: options.baseUrl });
  const reader: HistoryPorts = {
    open: (name) => openOneTenant(ports, config, options, verb, name),
    warn: (line) => ports.output.err(line),
    // With --base-url any name goes, as for every command.
    ...(options.baseUrl === undefined && { known: (name: string) => void selectTenants(config, { named: [name], all: false }) }),
  };
  return { config, tenant, reader };
}

/** `history`'s document: the newest `limit` records, newest first. */
export async function historyDocument(opts: { cwd: string; config: Config; tenant: string; limit: number }, ports: HistoryPorts): Promise<HistoryDocument> {
  const { records, store, skipped } = await journalRecords(opts.cwd, opts.config, opts.tenant, ports);
  return {
    format_version: HISTORY_FORMAT_VERSION,
    tenant: opts.tenant,
    store: store.kind === 'file' ? { kind: 'file', path: store.where } : { kind: 'tenant', role: HISTORY_ROLE },
    total: records.length,
    records: records
      .slice(-opts.limit)
      .reverse()
      .map(({ before_content: _content, ...record }) => record),
    skipped,
  };
}

/**
 * The record ID names (its id, or the start of exactly one id); anything else is one line, exit 1.
 */
export function findRecord(records: readonly JournalRecord[], id: string, tenant: string): number {
  const exact = records.findIndex((r) => r.id === id);
  if (exact !== -1) return exact;
  const matches = id === '' ? [] : records.flatMap((r, i) => (r.id.startsWith(id) ? [i] : []));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new RoleflowError(`${quote(id)} is the start of ${matches.length} journal records of tenant ${quote(tenant)} (${matches.slice(0, 3).map((i) => records[i]!.id).join(', ')}…): give more of the id`, 'usage');
  throw new RoleflowError(`no journal record ${quote(id)} for tenant ${quote(tenant)}: roleflow history --tenant ${showName(tenant)} lists them`, 'usage');
}

/**
 * `history show ID [--diff]`: one record and, with `diff`, each change's content before and after:
 * after from the role files of the record's commit (rendered for the tenant), before from the
 * content the journal kept or the files of an earlier record's commit.
 */
export async function showRecord(
  opts: { cwd: string; config: Config; tenant: string; id: string; diff: boolean },
  ports: HistoryPorts,
): Promise<{ record: JournalRecord; diffs?: { before: ShownSide; after: ShownSide }[] }> {
  const { records } = await journalRecords(opts.cwd, opts.config, opts.tenant, ports);
  const index = findRecord(records, opts.id, opts.tenant);
  const record = records[index]!;
  if (!opts.diff) return { record };
  const contents = new RoleContents(opts.cwd, opts.config, opts.tenant, records);
  const before = commitsBefore(records, index - 1);
  const after = [record.commit, ...before];
  const side = async (sha: string | undefined, commits: (string | null)[]): Promise<ShownSide> => {
    if (sha === undefined) return undefined;
    return (await contents.find(sha, commits)) ?? { missing: `the content of ${sha.slice(0, 15)}… is neither kept by the journal nor in the role files of the commits it names` };
  };
  const diffs = [];
  for (const change of record.changes) diffs.push({ before: await side(change.before_sha256, before), after: await side(change.after_sha256, after) });
  return { record, diffs };
}
