import { HISTORY_ROLE } from '../../../roles/reserved.js';
import type { Role, RoleFields } from '../../../model.js';
import { globMatcher } from '../../../plan/matching.js';
import { roleSha, type JournalRecord } from '../record.js';
import { ABSENT, classify, DRIFT_STATUSES, lastApplied, type DriftStatus } from './classify.js';
import { driftRemedy } from './remedy.js';

export const DRIFT_FORMAT_VERSION = 1;

/** One Role's drift (`schemas/drift.schema.json`). */
export interface DriftRole {
  name: string;
  status: DriftStatus;
  /** The tenant's Role id (several when the tenant holds several Roles of this name). */
  ids?: string[];
  files_sha256: string | null;
  tenant_sha256: string | null;
  /** What the journal says roleflow left there (null: absent); absent when there is no journal. */
  applied_sha256?: (string | null)[];
  /** The commands that settle it (`driftRemedy`); absent when in sync. */
  remedy?: string;
}

export interface TenantDrift {
  tenant: string;
  /** The journal's size and last record; null when it has none. */
  journal: { records: number; last: { id: string; time: string; actor: string; commit: string | null; status: string } } | null;
  summary: Record<DriftStatus, number>;
  /** Every Role, the drifted first; `drift.ignore` leaves Roles out (`hidden` counts them). */
  roles: DriftRole[];
  hidden: number;
  /** With `--notify issue`: the GitHub issue that reports it (`driftIssue`). */
  issue?: { marker: string; title: string; body: string; open: boolean };
}

/** A tenant of the run that could not be asked (unreachable, refusing the token): the others are still reported. */
export interface TenantDriftError {
  tenant: string;
  error: { code: string; message: string };
}

export interface DriftDocument {
  format_version: typeof DRIFT_FORMAT_VERSION;
  tenants: (TenantDrift | TenantDriftError)[];
}

export function isDriftError(entry: TenantDrift | TenantDriftError): entry is TenantDriftError {
  return 'error' in entry;
}

/**
 * Each Role of the files (rendered for the tenant), of the tenant, or of the journal's last
 * state, classified (`classify`). `roles.ignore` globs leave Roles out entirely, as plans do;
 * `drift.ignore` globs hide them from the result (counted in `hidden`). The journal's own Role is
 * never one of them.
 */
export function tenantDrift(input: {
  tenant: string;
  files: readonly RoleFields[];
  remote: readonly Role[];
  records: readonly JournalRecord[];
  ignore: readonly string[];
  hide: readonly string[];
}): TenantDrift {
  const ignored = globMatcher(input.ignore);
  const hidden = globMatcher(input.hide);
  const applied = lastApplied(input.records);
  const files = new Map<string, string>();
  for (const f of input.files) if (ignored(f.name) === undefined) files.set(f.name, roleSha(f));
  const remote = new Map<string, Role[]>();
  for (const r of input.remote) {
    if (r.name === HISTORY_ROLE || ignored(r.name) !== undefined) continue;
    remote.set(r.name, [...(remote.get(r.name) ?? []), r]);
  }
  const names = new Set([...files.keys(), ...remote.keys(), ...(applied === undefined ? [] : [...applied.keys()].filter((n) => ignored(n) === undefined))]);
  const roles: DriftRole[] = [];
  let hiddenCount = 0;
  for (const name of names) {
    if (hidden(name) !== undefined) {
      hiddenCount++;
      continue;
    }
    const held = remote.get(name) ?? [];
    // Several Roles of one name: their fingerprints together, which match nothing one Role left.
    const tenantSha = held.length === 0 ? ABSENT : held.map(roleSha).sort().join(' ');
    const filesSha = files.get(name) ?? ABSENT;
    const status = classify(filesSha, tenantSha, applied, name);
    const left = applied?.get(name);
    const remedy = driftRemedy(status, input.tenant, name, filesSha !== ABSENT);
    roles.push({
      name,
      status,
      ...(held.length > 0 && { ids: held.map((r) => r.id) }),
      files_sha256: orNull(filesSha),
      tenant_sha256: orNull(tenantSha),
      ...(applied !== undefined && { applied_sha256: [...(left ?? [ABSENT])].map(orNull) }),
      ...(remedy !== undefined && { remedy }),
    });
  }
  const rank = (s: DriftStatus): number => DRIFT_STATUSES.indexOf(s);
  roles.sort((a, b) => rank(a.status) - rank(b.status) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const summary = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0])) as Record<DriftStatus, number>;
  for (const r of roles) summary[r.status]++;
  const last = input.records.at(-1);
  return {
    tenant: input.tenant,
    journal: last === undefined ? null : { records: input.records.length, last: { id: last.id, time: last.time, actor: last.actor, commit: last.commit, status: last.status } },
    summary,
    roles,
    hidden: hiddenCount,
  };
}

function orNull(sha: string): string | null {
  return sha === ABSENT ? null : sha;
}
