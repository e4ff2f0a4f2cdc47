import { plural, quote, showName } from '../roles/display.js';
import type { RolesDigestRecord, RunCounts, WorkTreeRecord } from '../runs/index.js';

/**
 * The promotion gate's word on what a report's tests ran against (the Roles, the work tree) and on
 * its counts: each reason one line, none when the report stands for the Roles being promoted.
 */

/** What the gate expects of the Roles: those the role files render to for the tenant promoted from. */
export interface ExpectedRoles {
  /** `rolesDigest` of the role files for the tenant, at the current commit. */
  digest: string;
  /** The config's `roles.ignore`, which the digests leave out. */
  ignore: readonly string[];
  /** Names of the Roles the tenant holds now that no role file manages (a plan without prune). */
  unmanaged: readonly string[];
}

/** Roles named in a refusal; a plan lists them all. */
const MAX_NAMED = 3;

export function rolesReasons(tenant: string, recorded: RolesDigestRecord | undefined, expected: ExpectedRoles): string[] {
  const who = quote(tenant);
  if (recorded === undefined) {
    return [
      `the report does not record the Roles ${who} held when its tests ran (a report of an older roleflow, a run that could not list them or was interrupted, or a merge of runs that saw different Roles): run the tests again`,
    ];
  }
  const globs = (list: readonly string[]) => (list.length === 0 ? 'none' : list.map(quote).join(', '));
  if (globs(recorded.ignore ?? []) !== globs(expected.ignore)) {
    return [`the report's Roles digest leaves out the Roles its run's roles.ignore matched (${globs(recorded.ignore ?? [])}), not those of the config here (${globs(expected.ignore)}): run the tests with this config`];
  }
  if (recorded.start !== recorded.end) {
    return [`the Roles of ${who} changed while the tests ran (${short(recorded.start)} at the start, ${short(recorded.end)} at the end): test again while nothing changes them`];
  }
  if (recorded.start === expected.digest) return [];
  const { unmanaged } = expected;
  const others =
    unmanaged.length === 0
      ? ''
      : `; ${who} also holds ${plural(unmanaged.length, 'Role')} that no role file manages (${named(unmanaged)}): delete ${unmanaged.length === 1 ? 'it' : 'them'} (apply --prune) or match ${unmanaged.length === 1 ? 'it' : 'them'} with roles.ignore`;
  return [
    `the tests ran against other Roles than the role files give ${who} at this commit (${who} held ${short(recorded.start)}, the role files render to ${short(expected.digest)}): apply the role files to ${who}, then test again${others}`,
  ];
}

export function workTreeReasons(tree: WorkTreeRecord | undefined): string[] {
  if (tree === undefined) {
    return ['the report does not record whether its work tree was the commit (a report of an older roleflow, or a merge of reports some of which do not): run the tests again'];
  }
  if (tree.state === 'unknown') {
    return ['the report cannot tell whether the files its tests ran with were the commit (they ran outside a git checkout, or git could not tell): run them in a git checkout of the commit'];
  }
  if (tree.state === 'dirty') {
    const files = tree.changed ?? [];
    const changed = files.length === 0 ? '' : ` (${files.slice(0, MAX_NAMED).map(showName).join(', ')}${files.length > MAX_NAMED ? ', …' : ''})`;
    return [`the tests ran on a work tree with uncommitted changes${changed}: the report is not of the commit's files; commit or discard the changes, and test again`];
  }
  return [];
}

/** A report's summary against its results counted again: an edited summary is no count of them. */
export function summaryReasons(summary: Partial<RunCounts>, counted: RunCounts): string[] {
  const keys = Object.keys(counted) as (keyof RunCounts)[];
  // `not_run` is absent from reports written before it was counted.
  const differ = keys.filter((key) => (summary[key] ?? (key === 'not_run' ? 0 : undefined)) !== counted[key]);
  if (differ.length === 0) return [];
  const says = differ.map((key) => `${key} ${String(summary[key])}`).join(', ');
  const is = differ.map((key) => `${key} ${counted[key]}`).join(', ');
  return [`the report's summary does not match its results (it says ${says}; its results count ${is}): it was edited; promote a report as roleflow wrote it`];
}

/** `sha256:0123456789ab…`: enough of a digest to tell two apart. */
function short(digest: string): string {
  return digest.length > 19 ? `${showName(digest.slice(0, 19))}…` : showName(digest);
}

function named(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMED).map(quote);
  return names.length > MAX_NAMED ? `${shown.join(', ')}, and ${names.length - MAX_NAMED} more` : shown.join(', ');
}
