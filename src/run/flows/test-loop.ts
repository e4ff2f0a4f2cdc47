import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { escapeControls } from '../../core/text/safe-text.js';
import { badTagFlag, failedIn, lastFailed, lastRunRecord, parsePassRate, type PassRateSource, type RerunSet, type TagFilter } from '../../core/runs/loop/index.js';
import { durationsOf } from '../../core/runs/shards/index.js';
import type { UserRegex } from '../../core/text/linear-regex.js';
import { lastRunFileOf, readLastRun, recordLastRun, type LastRunLocation } from '../../files/runs/last-run.js';
import { displayPath } from '../../files/source-files.js';
import type { RunReport, ShardPlanRecord } from '../../report/model.js';
import type { ShardPlan } from '../../core/runs/shards/index.js';
import { readJsonReports } from '../read-reports.js';

/** `test`'s flags of the everyday loop: tags, reruns, timings, the suite's pass rate. */
export interface LoopFlags {
  tags?: readonly string[] | undefined;
  excludeTags?: readonly string[] | undefined;
  lastFailed?: boolean | undefined;
  failedFrom?: string | undefined;
  only?: string | undefined;
  minPassRate?: string | undefined;
  timings?: string | undefined;
  /** `--shard`, which `--timings` needs. */
  shard?: string | undefined;
}

/** The loop flags read and checked, before any test runs. */
export interface TestLoop {
  tags?: TagFilter;
  /** `--timings REPORT`: each test's past duration. */
  timings?: { file: string; durations: Map<string, number> };
  /** `--min-pass-rate`, else `flows.min_pass_rate`, in percent. */
  minPassRate?: number;
  /** Which of the two `minPassRate` is. */
  minPassRateSetBy?: PassRateSource;
  /** Where every run records its last run. */
  lastRun: LastRunLocation;
  /** `--last-failed`, `--failed-from`: the tests to rerun on a tenant (`nothing`: there are none). */
  rerun?: (tenant: string) => Promise<RerunSet & { nothing?: string }>;
}

/**
 * `test`'s loop flags checked (one line naming the flag when they do not fit together) and the
 * files they name read: the timings report now, the rerun's source when a tenant's run asks.
 */
export async function readTestLoop(cwd: string, config: Config, flags: LoopFlags): Promise<TestLoop> {
  const usage = (line: string) => new RoleflowError(line, 'usage');
  for (const [flag, tags] of [['--tag', flags.tags], ['--exclude-tag', flags.excludeTags]] as const) {
    const bad = badTagFlag(flag, tags ?? []);
    if (bad !== undefined) throw usage(bad);
  }
  if (flags.lastFailed && flags.failedFrom !== undefined) throw usage('--last-failed and --failed-from both name the tests to rerun: give one of them');
  if (flags.only !== undefined && flags.only !== 'errors') throw usage(`invalid --only ${JSON.stringify(flags.only)}: the one choice is --only errors (rerun only the tests the tenant or the network failed)`);
  if (flags.only !== undefined && !flags.lastFailed && flags.failedFrom === undefined) throw usage('--only errors narrows a rerun: give it with --last-failed or --failed-from REPORT');
  if (flags.timings !== undefined && flags.shard === undefined) throw usage('--timings deals the tests of a sharded run: give --shard I/N (or --shard auto) with it');
  const rate = flags.minPassRate === undefined ? undefined : parsePassRate(flags.minPassRate, '--min-pass-rate');
  if (rate && !rate.ok) throw usage(rate.error);
  const minPassRate = rate?.ok ? rate.value : config.flows.minPassRate;
  const minPassRateSetBy: PassRateSource = rate?.ok ? '--min-pass-rate' : 'flows.min_pass_rate';
  const tags = (flags.tags?.length ?? 0) + (flags.excludeTags?.length ?? 0) > 0 ? { include: [...(flags.tags ?? [])], exclude: [...(flags.excludeTags ?? [])] } : undefined;
  const timings = flags.timings === undefined ? undefined : { file: flags.timings, durations: durationsOf((await readJsonReports(cwd, [flags.timings]))[0]!.report.results) };
  const lastRun = lastRunFileOf(cwd, config);
  const onlyErrors = flags.only === 'errors';
  let rerun: TestLoop['rerun'];
  if (flags.lastFailed) {
    rerun = async (tenant) => {
      const picked = lastFailed(await readLastRun(lastRun), tenant, lastRun.display, onlyErrors);
      if (!picked.ok) throw new RoleflowError(picked.error);
      return picked.value;
    };
  } else if (flags.failedFrom !== undefined) {
    const from = flags.failedFrom;
    const report = (await readJsonReports(cwd, [from]))[0]!.report;
    const set = failedIn(report.results, displayPath(cwd, resolve(cwd, from)), onlyErrors);
    const nothing = `nothing to rerun: no test ${onlyErrors ? 'errored' : 'failed'} in ${from} (${report.summary.tests} tests × transports)`;
    // Tests failed on one tenant may be rerun on another (a fix deployed there), but not unawares:
    // the reports of the two runs do not merge (`report merge` refuses different tenants).
    const other = (tenant: string) => `note: ${from} is a report of tenant ${escapeControls(report.tenant.name)}; its failed tests run on tenant ${tenant}`;
    rerun = async (tenant) => ({ ...set, ...(set.keys.size === 0 && { nothing }), ...(report.tenant.name !== tenant && { note: other(tenant) }) });
  }
  return { lastRun, ...(tags && { tags }), ...(timings && { timings }), ...(minPassRate !== undefined && { minPassRate, minPassRateSetBy }), ...(rerun && { rerun }) };
}

/** What `selectRuns` takes besides `parseSelectionFlags`: tags, a rerun's tests, timings. */
export interface LoopSelection {
  tags?: TagFilter;
  only?: ReadonlySet<string>;
  timings?: ReadonlyMap<string, number>;
}

/** Why a selection matched no test: the rerun's tests are gone, or the filters match none. */
export function noMatchReason(parsed: LoopSelection & { grep?: UserRegex }, grep: string | undefined): string {
  const { only, tags } = parsed;
  if (only) return `none of the tests to rerun (${only.size}) is in the flow test files${parsed.grep || tags ? ' and the filters' : ''}`;
  if (!parsed.grep && !tags) return 'the flow test files hold no tests';
  const tagFlags = tags && [...tags.include.map((t) => `--tag ${t}`), ...tags.exclude.map((t) => `--exclude-tag ${t}`)].join(' ');
  return `no test matches ${[parsed.grep && `--grep ${grep}`, tagFlags].filter(Boolean).join(' and ')}`;
}

/** What a run's selection takes from the loop: tags, the tests to rerun, timings (see `selectRuns`). */
export function loopSelection(loop: TestLoop, rerun: RerunSet | undefined): LoopSelection {
  return { ...(loop.tags && { tags: loop.tags }), ...(rerun && { only: rerun.keys }), ...(loop.timings && { timings: loop.timings.durations }) };
}

/** A rerun as the report's selection records it. */
export function rerunRecord(rerun: RerunSet): { from: string; only?: 'errors' } {
  return { from: rerun.from, ...(rerun.only && { only: rerun.only }) };
}

/** The shard plan as the report records it. */
export function shardPlanRecord(plan: ShardPlan, loop: TestLoop): ShardPlanRecord {
  return { digest: plan.digest, by: plan.by, ...(loop.timings && { timings: loop.timings.file }) };
}

/** `report`'s run recorded as its tenant's last run (`.roleflow/last-run.json`). */
export function recordRun(loop: TestLoop, report: RunReport): Promise<void> {
  return recordLastRun(loop.lastRun, lastRunRecord(report.tenant.name, report.finished_at, report.results));
}
