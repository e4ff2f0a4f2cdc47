import type { JournalRecord } from '../record.js';

/**
 * What became of each Role since roleflow last applied it (PRODUCT.md "History, rollback and
 * drift"). Three fingerprints per Role (`roleSha`, or absent): the role files', the tenant's, and
 * what the journal says roleflow left there.
 */
export type DriftStatus = 'in_sync' | 'pending' | 'drifted' | 'conflict' | 'created_outside' | 'deleted_outside' | 'unclassified';

export const DRIFT_STATUSES: readonly DriftStatus[] = ['drifted', 'conflict', 'created_outside', 'deleted_outside', 'pending', 'unclassified', 'in_sync'];

/** The statuses that are changes made on the tenant behind roleflow's back (`--detailed-exitcode` 5). */
export const DRIFT_FOUND: ReadonlySet<DriftStatus> = new Set(['drifted', 'conflict', 'created_outside', 'deleted_outside']);

/** Stands for "no such Role" among fingerprints. */
export const ABSENT = 'absent';

/**
 * What the journal says each Role was left as, name → the fingerprints it may hold (`ABSENT`
 * included): one, from the last record with a state; a record after it that has none (its apply
 * was killed) adds both sides of each of its changes, since either may have landed. Undefined
 * when the journal has no record: nothing can be told apart.
 */
export function lastApplied(records: readonly JournalRecord[]): Map<string, Set<string>> | undefined {
  let applied: Map<string, Set<string>> | undefined;
  for (const record of records) {
    if (record.state !== undefined) {
      applied = new Map(Object.entries(record.state).map(([name, sha]) => [name, new Set([sha])]));
      continue;
    }
    applied ??= new Map();
    for (const change of record.changes) {
      const from = change.renamed_from ?? change.name;
      widen(applied, from, change.action === 'create' ? ABSENT : change.before_sha256);
      widen(applied, change.name, change.action === 'delete' ? ABSENT : change.after_sha256);
      if (from !== change.name) widen(applied, from, ABSENT);
    }
  }
  return applied;
}

function widen(applied: Map<string, Set<string>>, name: string, sha: string | undefined): void {
  const set = applied.get(name) ?? new Set([ABSENT]);
  if (sha !== undefined) set.add(sha);
  applied.set(name, set);
}

/**
 * One Role: `files` and `tenant` are fingerprints or `ABSENT`; `applied` what the journal allows
 * (undefined: no journal). Files equal to the tenant are in sync whatever the journal says.
 */
export function classify(files: string, tenant: string, applied: Map<string, Set<string>> | undefined, name: string): DriftStatus {
  if (files === tenant) return 'in_sync';
  if (applied === undefined) return 'unclassified';
  const left = applied.get(name) ?? new Set([ABSENT]);
  if (left.has(tenant)) return 'pending';
  if (tenant === ABSENT) return 'deleted_outside';
  if (files === ABSENT && [...left].every((sha) => sha === ABSENT)) return 'created_outside';
  return left.has(files) ? 'drifted' : 'conflict';
}

/** `--detailed-exitcode`: 5 when anything drifted (or conflicts, or was made or deleted outside), else 2 when anything is pending or unclassified, else 0. */
export function driftExitCode(statuses: Iterable<DriftStatus>): 0 | 2 | 5 {
  let code: 0 | 2 | 5 = 0;
  for (const status of statuses) {
    if (DRIFT_FOUND.has(status)) return 5;
    if (status !== 'in_sync') code = 2;
  }
  return code;
}
