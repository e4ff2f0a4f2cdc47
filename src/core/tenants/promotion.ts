import { plural, quote, showName } from '../roles/display.js';
import { countResults, type CountedResult } from '../runs/counts.js';
import type { RolesDigestRecord, WorkTreeRecord } from '../runs/tested-against.js';
import { rolesReasons, summaryReasons, workTreeReasons, type ExpectedRoles } from './tested-against.js';

/** What the promotion gate reads of a JSON test report (`schemas/report.schema.json`). */
export interface GateReport {
  tenant: { name: string; base_url: string };
  commit?: string;
  selection?: { flows_dir: string; paths: string[]; grep?: string; transport?: string; tags?: string[]; exclude_tags?: string[]; rerun?: { from: string; only?: string } };
  roles_digest?: RolesDigestRecord;
  work_tree?: WorkTreeRecord;
  bailed?: boolean;
  shard?: { index: number; total: number };
  merged_shards?: { index: number; total: number }[];
  missing_shards?: { index: number; total: number }[];
  interrupted?: boolean;
  summary: { tests: number; passed: number; skipped: number; failed: number; errored: number; not_run?: number; executions: number };
  results: (CountedResult & { id: string; transport: string })[];
}

/** What the report must match: the tenant promoted from, its suite, its Roles, the commit. */
export interface GateExpectation {
  from: string;
  fromUrl?: string;
  /** The config's flows folder (`flows.dir`), as reports name it. */
  flowsDir: string;
  /** The Roles the role files render to for `from`. */
  roles: ExpectedRoles;
  commit: string | undefined;
  /** Why `commit` is undefined, as it was the case. */
  commitUnknown?: string;
}

/** Failing tests named in a refusal; the report has them all. */
const MAX_NAMED = 5;

/**
 * Why a test report does not let a promotion from tenant `from` through, every reason at once
 * (empty: it does): it must be a report of `from` (by name, and at `fromUrl` when given), of the
 * config's whole suite (its flows folder, not narrowed by PATH arguments, --grep or --transport;
 * not one shard, no missing shard, not interrupted, nothing left unrun), with no failed or
 * errored test, recorded at `commit` — the commit being promoted — on a clean work tree, while
 * the tenant held the Roles the role files render to for it (at the start and at the end), and
 * with a summary that is the count of its results (which are judged, not the summary). A report
 * without a commit, or a current commit that cannot be known, is refused: nothing ties it to
 * these files.
 */
export function reportGateReasons(report: GateReport, expected: GateExpectation): string[] {
  const reasons: string[] = [];
  const { tenant } = report;
  const summary = countResults(report.results);
  if (tenant.name !== expected.from) reasons.push(`the report is of tenant ${quote(tenant.name)}, not of ${quote(expected.from)}`);
  else if (expected.fromUrl !== undefined && tenant.base_url !== expected.fromUrl) {
    reasons.push(`the report is of ${quote(tenant.name)} at ${showName(tenant.base_url)}, but that tenant is at ${showName(expected.fromUrl)}`);
  }
  const shards = (list: { index: number; total: number }[]) => list.map((s) => `${s.index}/${s.total}`).join(', ');
  if (report.missing_shards?.length) reasons.push(`the report is incomplete: shard ${shards(report.missing_shards)} missing (merged with --allow-partial)`);
  else if (report.shard !== undefined && report.merged_shards === undefined) {
    reasons.push(`the report is of shard ${shards([report.shard])} only: merge the reports of every shard (roleflow report merge)`);
  }
  reasons.push(...selectionReasons(report.selection, expected.flowsDir));
  if (report.interrupted === true) reasons.push('the test run was interrupted');
  if (summary.not_run > 0) {
    const why = report.interrupted === true ? 'the run was interrupted' : report.bailed === true ? '--bail stopped the run after a failure' : '--bail or an interruption';
    reasons.push(`${plural(summary.not_run, 'test')} of the report did not run (${why})`);
  }
  if (summary.tests === 0) reasons.push('the report holds no test');
  // Skipped tests checked nothing: a report of skips alone says nothing about the tenant.
  else if (summary.passed === 0 && summary.failed === 0 && summary.not_run === 0) {
    reasons.push(`no test of the report passed: all ${plural(summary.tests, 'test')} were skipped, so nothing was checked on ${quote(tenant.name)}`);
  }
  if (summary.failed > 0) {
    const failing = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
    const named = failing.slice(0, MAX_NAMED).map((r) => `${showName(r.id)} [${r.transport}]`);
    const more = failing.length > MAX_NAMED ? `, and ${failing.length - MAX_NAMED} more` : '';
    const errored = summary.errored > 0 ? ` (${summary.errored} errored)` : '';
    reasons.push(`${plural(summary.failed, 'test')} failed${errored}: ${named.join(', ')}${more}`);
  }
  if (report.commit === undefined) {
    reasons.push('the report records no commit (its run had neither a full GITHUB_SHA nor a git commit): run the tests in a git checkout, or with GITHUB_SHA set to the full sha');
  } else if (expected.commit === undefined) {
    reasons.push(`the current commit is unknown (${expected.commitUnknown ?? 'neither a full GITHUB_SHA nor a git commit'}): the report cannot be tied to these files`);
  }
  else if (report.commit !== expected.commit) reasons.push(`the report was recorded at commit ${showName(report.commit)}, not at the current commit ${showName(expected.commit)}`);
  reasons.push(...workTreeReasons(report.work_tree));
  reasons.push(...rolesReasons(expected.from, report.roles_digest, expected.roles));
  reasons.push(...summaryReasons(report.summary, summary));
  return reasons;
}

/** Paths named in a refusal; the report has them all. */
const MAX_PATHS = 3;

/**
 * Why the run's selection is not the config's whole suite: another flows folder (another
 * `--config`), each filter `test` was given that narrowed it (PATH arguments, --grep,
 * --transport, --tag, --exclude-tag, a rerun of what failed).
 */
function selectionReasons(selection: GateReport['selection'], flowsDir: string): string[] {
  if (selection === undefined) {
    return ['the report does not record which tests its run was asked for (a report of an older roleflow, or a merge of runs asked for different tests): run the whole suite again'];
  }
  const reasons: string[] = [];
  const { paths, flows_dir: folder } = selection;
  if (folder !== flowsDir) {
    reasons.push(`the run was of the flows folder ${showName(`${folder}/`)}, not of the config's ${showName(`${flowsDir}/`)} (another --config, or another working folder): run the config's whole suite from here`);
  }
  if (paths.length > 0 && !paths.some((path) => pathCovers(path, folder))) {
    const named = paths.slice(0, MAX_PATHS).map(showName).join(', ');
    const more = paths.length > MAX_PATHS ? `, and ${paths.length - MAX_PATHS} more` : '';
    reasons.push(`the run was of ${named}${more} only, not of the whole flows folder ${showName(`${folder}/`)}: run roleflow test without PATH arguments`);
  }
  if (selection.grep !== undefined) reasons.push(`the run was narrowed by --grep ${showName(selection.grep)}: run the whole suite`);
  if (selection.transport !== undefined) reasons.push(`the run was of --transport ${showName(selection.transport)} only: run every transport`);
  if (selection.tags?.length) reasons.push(`the run was narrowed by --tag ${selection.tags.map(showName).join(', ')}: run the whole suite`);
  if (selection.exclude_tags?.length) reasons.push(`the run left out --exclude-tag ${selection.exclude_tags.map(showName).join(', ')}: run the whole suite`);
  if (selection.rerun !== undefined) {
    reasons.push(`the run was a rerun of the tests that failed in ${showName(selection.rerun.from)} only: run the whole suite, or merge it into the first run's report (roleflow report merge FIRST RERUN --prefer-last)`);
  }
  return reasons;
}

/**
 * Whether a path as reports name them (relative with `/`, or absolute) is `folder` or holds it:
 * `flows`, `.` and `..` hold `flows`; `flows/one.yaml` and `other` do not.
 */
export function pathCovers(path: string, folder: string): boolean {
  const segments = (p: string) => p.split('/').filter((s, i) => s !== '.' && (s !== '' || i === 0));
  const outer = segments(path);
  const inner = segments(folder);
  if (outer.every((s) => s === '..')) {
    // `..` holds every relative path that climbs no higher than it does.
    const climbs = inner.findIndex((s) => s !== '..');
    return inner[0] !== '' && (climbs === -1 ? inner.length : climbs) <= outer.length;
  }
  return outer.length <= inner.length && outer.every((s, i) => s === inner[i]);
}
