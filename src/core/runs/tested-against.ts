/**
 * What a test run ran against, as its report records it beside its results: the tenant's Roles
 * (`RolesDigestRecord`) and the work tree (`WorkTreeRecord`). Pure: how the records of a run's
 * start and end, or of the shards of a merge, combine.
 */

/** `rolesDigest` of the tenant's Roles at the start and at the end of the run. */
export interface RolesDigestRecord {
  start: string;
  end: string;
  /** The config's `roles.ignore`: the Roles the digests leave out, as the plan does. Absent: none. */
  ignore?: string[];
}

/**
 * clean: no tracked file changed and no untracked file that git does not ignore, before the run
 * and after it (roleflow's own `.roleflow/` folders, and the reports the command wrote, never
 * count); dirty: some was; unknown: not in a git checkout, or git could not tell.
 */
export interface WorkTreeRecord {
  state: 'clean' | 'dirty' | 'unknown';
  /** dirty: the first changed paths (at most `MAX_CHANGED`), from the repository's root, as `git status` names them. */
  changed?: string[];
}

export const MAX_CHANGED = 10;

/**
 * The work tree over several records (a run's start and end, the shards of a merge): dirty when
 * any is, with their changes; else unknown when any is; else clean.
 */
export function combineWorkTrees(records: readonly WorkTreeRecord[]): WorkTreeRecord {
  if (records.some((r) => r.state === 'dirty')) {
    const changed = [...new Set(records.flatMap((r) => r.changed ?? []))].sort().slice(0, MAX_CHANGED);
    return { state: 'dirty', changed };
  }
  return records.some((r) => r.state === 'unknown') ? { state: 'unknown' } : { state: 'clean' };
}

/**
 * The Roles digest of runs merged into one: theirs when every run saw the same Roles at its start,
 * the same at its end, leaving out the same ones; undefined otherwise (or when any lacks one).
 */
export function commonRolesDigest(records: readonly (RolesDigestRecord | undefined)[]): RolesDigestRecord | undefined {
  const first = records[0];
  if (first === undefined) return undefined;
  const key = (r: RolesDigestRecord) => JSON.stringify([r.start, r.end, r.ignore ?? []]);
  return records.every((r) => r !== undefined && key(r) === key(first)) ? first : undefined;
}
