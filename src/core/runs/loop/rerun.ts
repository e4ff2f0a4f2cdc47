import type { Parsed, Transport } from '../../flows/types.js';

/**
 * Rerunning what failed: `.roleflow/last-run.json` (every `test` run writes it) and `--last-failed`,
 * `--failed-from REPORT [--only errors]`. Tests are named by id (`file > name`) and transport.
 */

/** A test × transport of a run that did not pass. */
export interface LastRunTest {
  id: string;
  transport: Transport;
  /** `error`: only the executions went wrong (tenant, network, timeout), not an assertion. */
  status: 'fail' | 'error' | 'skip' | 'not_run';
}

/** One tenant's last run. */
export interface LastRunRecord {
  tenant: string;
  finished_at: string;
  /** Tests × transports the run held. */
  tests: number;
  /** Those that failed, errored, were skipped or not run, in the run's order. */
  not_passed: LastRunTest[];
}

/** `.roleflow/last-run.json`: the last run of each tenant tested from here. */
export interface LastRunFile {
  format_version: 1;
  runs: LastRunRecord[];
}

/** What a rerun reads of a result: a test's id, transport and status. */
export interface RerunResult {
  id: string;
  transport: Transport;
  status: string;
}

/** The tests a rerun runs, as `id` NUL `transport` keys (`rerunKey`), and what they came from. */
export interface RerunSet {
  keys: ReadonlySet<string>;
  /** `.roleflow/last-run.json`, or the report's file: the run's `selection.rerun.from`. */
  from: string;
  only?: 'errors';
  /** Said before the rerun: `--failed-from` a report of another tenant than the one the tests run on. */
  note?: string;
}

export function rerunKey(id: string, transport: string): string {
  return `${id}\u0000${transport}`;
}

/** The record of one tenant's run (`results` in its order). */
export function lastRunRecord(tenant: string, finishedAt: string, results: readonly RerunResult[]): LastRunRecord {
  const notPassed = results.flatMap((r): LastRunTest[] =>
    r.status === 'fail' || r.status === 'error' || r.status === 'skip' || r.status === 'not_run' ? [{ id: r.id, transport: r.transport, status: r.status }] : [],
  );
  return { tenant, finished_at: finishedAt, tests: results.length, not_passed: notPassed };
}

/** `file` with `record` as its tenant's last run (the other tenants' kept, in name order). */
export function withLastRun(file: LastRunFile | undefined, record: LastRunRecord): LastRunFile {
  const others = (file?.runs ?? []).filter((r) => r.tenant !== record.tenant);
  return { format_version: 1, runs: [...others, record].sort((a, b) => (a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0)) };
}

/** `.roleflow/last-run.json` read back; anything else is one line (roleflow writes the file, but a hand may not). */
export function parseLastRun(value: unknown, file: string): Parsed<LastRunFile> {
  const bad = (why: string): Parsed<LastRunFile> => ({ ok: false, error: `${file}: ${why}: run roleflow test again to record the last run` });
  if (!isObject(value) || value['format_version'] !== 1 || !Array.isArray(value['runs'])) return bad('not a last-run record of this roleflow');
  const runs: LastRunRecord[] = [];
  for (const run of value['runs']) {
    if (!isObject(run) || typeof run['tenant'] !== 'string' || typeof run['finished_at'] !== 'string' || typeof run['tests'] !== 'number' || !Array.isArray(run['not_passed'])) {
      return bad('a run without its tenant, time or tests');
    }
    const tests = run['not_passed'].filter(
      (t): t is LastRunTest => isObject(t) && typeof t['id'] === 'string' && (t['transport'] === 'https' || t['transport'] === 'ws') && ['fail', 'error', 'skip', 'not_run'].includes(t['status'] as string),
    );
    if (tests.length !== run['not_passed'].length) return bad('a test without its id, transport or status');
    runs.push({ tenant: run['tenant'], finished_at: run['finished_at'], tests: run['tests'], not_passed: tests });
  }
  return { ok: true, value: { format_version: 1, runs } };
}

/**
 * `--last-failed`: the failed and errored tests of `tenant`'s last run. `nothing`: the run had
 * none (a line saying so: the command exits 0); an error when no run of the tenant is recorded.
 */
export function lastFailed(file: LastRunFile | undefined, tenant: string, from: string, onlyErrors: boolean): Parsed<RerunSet & { nothing?: string }> {
  const run = file?.runs.find((r) => r.tenant === tenant);
  if (run === undefined) {
    return { ok: false, error: `--last-failed: no run of tenant ${tenant} is recorded in ${from}: run roleflow test first` };
  }
  const set = failedIn(run.not_passed, from, onlyErrors);
  if (set.keys.size > 0) return { ok: true, value: set };
  const what = onlyErrors ? 'errored' : 'failed';
  return { ok: true, value: { ...set, nothing: `nothing to rerun: no test ${what} in the last run of tenant ${tenant} (${run.tests} tests × transports, finished ${run.finished_at})` } };
}

/** `--failed-from REPORT [--only errors]`: the report's failed tests (errors: tenant or network failures only). */
export function failedIn(results: Iterable<RerunResult>, from: string, onlyErrors: boolean): RerunSet {
  const keys = new Set<string>();
  for (const r of results) {
    if (r.status === 'error' || (!onlyErrors && r.status === 'fail')) keys.add(rerunKey(r.id, r.transport));
  }
  return { keys, from, ...(onlyErrors && { only: 'errors' as const }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
