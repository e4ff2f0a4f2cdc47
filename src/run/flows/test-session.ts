import { resolve } from 'node:path';
import type { Baseline } from '../../core/compare/index.js';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { FlowTestFile, Transport } from '../../core/flows/index.js';
import { shownUrl } from '../../core/text/printed-url.js';
import { compileUserRegex, type UserRegex } from '../../core/text/linear-regex.js';
import type { Redactor } from '../../core/text/redact.js';
import type { RoleFile } from '../../core/roles/index.js';
import { combineWorkTrees, parseShard, selectRuns, type PlannedRun, type Shard, type WorkTreeRecord } from '../../core/runs/index.js';
import { shardFromEnv, type ShardPlan } from '../../core/runs/shards/index.js';
import type { PassRateSource } from '../../core/runs/loop/index.js';
import { noTestRanError } from '../../report/no-tests.js';
import { buildRunReport } from '../../report/run-report.js';
import type { RunReport, RunSelection, ShardPlanRecord } from '../../report/model.js';
import { defaultFlowsDir, findFlowFiles, flowsDirOf, loadFlowTestFiles } from '../../files/flows/flow-files.js';
import { displayPath } from '../../files/source-files.js';
import { packageVersion } from '../../files/package-root.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { AssertionFiles } from './assertions.js';
import { noMatchReason, type LoopSelection } from './test-loop.js';
import { JudgeRunner, judgeCache } from './judges.js';
import type { JudgeConfig } from '../../core/flows/judges/index.js';
import { runTests, type RunEvents } from './flow-tests.js';
import { listRolesDigest, rolesRecord } from './tested-against.js';
import { readJsonReports } from '../read-reports.js';

/** `test`'s selection flags as typed: checked before any file is read. */
export interface SelectionFlags {
  grep?: string | undefined;
  shard?: string | undefined;
  transport?: Transport | undefined;
  repeat?: number | undefined;
  /** `--pass-with-no-tests`: a run that tests nothing is no error. */
  passWithNoTests?: boolean | undefined;
  /** `--shard-total N`, for `--shard auto` in a Kubernetes Indexed Job. */
  shardTotal?: number | undefined;
  /** `--tag`, `--exclude-tag` (as the report records them). */
  tags?: readonly string[] | undefined;
  excludeTags?: readonly string[] | undefined;
  /** `--last-failed`, `--failed-from`: where the tests rerun came from (as the report records it). */
  rerun?: { from: string; only?: 'errors' } | undefined;
}

/**
 * `--grep` and `--shard` parsed (`--shard auto`: from the CI system's variables in `env`, see
 * `shardFromEnv`); one line naming the flag when either is malformed.
 */
export function parseSelectionFlags(flags: SelectionFlags, env: Record<string, string | undefined> = {}): { grep?: UserRegex; shard?: Shard } {
  if (flags.shardTotal !== undefined && flags.shard !== 'auto') throw new RoleflowError('--shard-total goes with --shard auto (a Kubernetes Indexed Job names only its index)', 'usage');
  const shard = flags.shard === undefined ? undefined : flags.shard.trim() === 'auto' ? shardFromEnv(env, flags.shardTotal) : parseShard(flags.shard);
  if (shard && !shard.ok) throw new RoleflowError(shard.error, 'usage');
  // The linear-time engine of every user pattern: a test name cannot hold the run either.
  const compiled = flags.grep === undefined ? undefined : compileUserRegex(flags.grep);
  if (compiled && !compiled.ok) throw new RoleflowError(`--grep: ${compiled.error}`, 'usage');
  const grep = compiled?.regex;
  return { ...(grep && { grep }), ...(shard?.ok && { shard: { index: shard.value.index, total: shard.value.total } }) };
}

/** What the report records of the run's selection (`RunSelection`): the PATH arguments resolved, the filters. */
export function runSelection(cwd: string, config: Config, paths: readonly string[], flags: SelectionFlags): RunSelection {
  return {
    flows_dir: flowsDirOf(cwd, config, undefined).display,
    paths: paths.map((path) => displayPath(cwd, resolve(cwd, path))),
    ...(flags.grep !== undefined && { grep: flags.grep }),
    ...(flags.transport !== undefined && { transport: flags.transport }),
    ...(flags.tags?.length && { tags: [...flags.tags] }),
    ...(flags.excludeTags?.length && { exclude_tags: [...flags.excludeTags] }),
    ...(flags.rerun && { rerun: flags.rerun }),
  };
}

/**
 * The flow test files of `paths` (default: the flows folder), every one valid, before anything is
 * sent.
 */
export async function loadFlowTests(cwd: string, config: Config, paths: readonly string[]): Promise<FlowTestFile[]> {
  const files = await findFlowFiles(cwd, paths.length > 0 ? paths : [await defaultFlowsDir(cwd, config)]);
  const loaded = await loadFlowTestFiles(files);
  if (!loaded.ok) throw new InvalidFilesError(loaded.issues);
  return loaded.value;
}

/**
 * What the output assertions of `files` need from disk (Roles for not_leaks, rendered for
 * `opts.tenant`; snapshot files), read before anything is sent; `update` is `test -u`. A problem
 * stops the run (`InvalidFilesError`).
 */
export function prepareAssertions(
  cwd: string,
  config: Config,
  files: readonly FlowTestFile[],
  opts: { update: boolean; ciUpdate?: boolean; env: Record<string, string | undefined>; tenant: string; roleFiles?: readonly RoleFile[]; readOnly?: boolean; noJudge?: boolean; judgeRoles?: boolean },
): Promise<AssertionFiles> {
  return AssertionFiles.prepare({
    cwd,
    config,
    flows: files,
    updateSnapshots: opts.update,
    env: opts.env,
    tenant: opts.tenant,
    ...(opts.ciUpdate && { ciUpdate: true }),
    ...(opts.roleFiles && { roleFiles: opts.roleFiles }),
    ...(opts.readOnly && { readOnly: true }),
    ...(opts.noJudge && { noJudge: true }),
    ...(opts.judgeRoles && { judgeRoles: true }),
  });
}

/** The runs this command makes on `tenant`: the files narrowed by the flags, for its transports. */
export function runsFor(
  tenant: OpenTenant,
  files: readonly FlowTestFile[],
  flags: SelectionFlags,
  parsed: { grep?: UserRegex; shard?: Shard } & LoopSelection,
  env: Record<string, string | undefined>,
): { runs: PlannedRun[]; secrets: string[]; plan?: ShardPlan } {
  const hasWs = tenant.target.wsUrl !== undefined;
  if (flags.transport === 'ws' && !hasWs) throw new RoleflowError(`--transport ws: tenant ${tenant.target.name} has no ws_url`, 'usage');
  const selection = selectRuns(files, {
    hasWs,
    env,
    ...parsed,
    ...(flags.transport && { transport: flags.transport }),
    ...(flags.repeat !== undefined && { repeat: flags.repeat }),
  });
  if (selection.matched === 0 && !flags.passWithNoTests) {
    throw new RoleflowError(noTestRanError(`no test ran: ${noMatchReason(parsed, flags.grep)}`));
  }
  return selection;
}

/** `--baseline FILE` read and checked (see `readJsonReports`); none without the flag. */
export async function loadBaseline(cwd: string, file: string | undefined): Promise<Baseline | undefined> {
  return file === undefined ? undefined : (await readJsonReports(cwd, [file]))[0];
}

/**
 * Run `runs` on `tenant` and build the run's report (values redacted). A tenant that cannot run
 * tests at all (unreachable, refusing the token) stops the run: an error, no report.
 */
export async function runTestSession(opts: {
  tenant: OpenTenant;
  runs: readonly PlannedRun[];
  concurrency: number;
  bail: boolean;
  strictEnd: boolean;
  signal: AbortSignal;
  events: RunEvents;
  shard: Shard | undefined;
  redactor: Redactor;
  /** From `prepareAssertions`: snapshots are written once the runs are over. */
  assertions?: AssertionFiles;
  /** `--baseline`: what relative budgets are judged against. */
  baseline?: Baseline | undefined;
  /** The commit tested, when known (`currentCommit`: `$GITHUB_SHA`, else `git rev-parse HEAD`). */
  commit?: string | undefined;
  /** `runSelection`: which tests the run was asked for. */
  selection?: RunSelection | undefined;
  /** The config's `judges:`, for `judge` assertions (not run under `--no-judge`). */
  judges?: Readonly<Record<string, JudgeConfig>>;
  /** The config's `roles.ignore`: the Roles the report's digests leave out, as the plan does. */
  rolesIgnore: readonly string[];
  /** The work tree's state (`workTreeState`) before the first execution, and after the last. */
  workTree: (when: 'start' | 'end') => Promise<WorkTreeRecord>;
  /** The plan the shard is a slice of (`runsFor`), as the report records it. */
  shardPlan?: ShardPlanRecord | undefined;
  /** `--min-pass-rate`, `flows.min_pass_rate`: the report's gate, and which of the two it is. */
  minPassRate?: number | undefined;
  minPassRateSetBy?: PassRateSource | undefined;
}): Promise<{ report: RunReport; interrupted: boolean; notes: string[] }> {
  const { tenant } = opts;
  if (!opts.redactor.none) opts.assertions?.maskWith((value) => opts.redactor.values(value, { keys: true }));
  // What the tests run against: the tenant's Roles and the work tree, before the first execution…
  // A run that executes nothing sends nothing: it has no Roles to record.
  const executes = opts.runs.some((r) => r.skip === undefined && r.error === undefined);
  const listRoles = (): Promise<Awaited<ReturnType<typeof listRolesDigest>>> => (executes ? listRolesDigest(tenant.client, opts.rolesIgnore, opts.signal) : Promise.resolve(undefined));
  const [rolesAtStart, treeAtStart] = await Promise.all([listRoles(), opts.workTree('start')]);
  const startedAt = new Date();
  const started = performance.now();
  const judgeRoles = opts.assertions?.judgeRoles;
  const judging =
    opts.judges && judgeRoles && !opts.assertions!.noJudge && opts.runs.some((r) => r.test.expect.outputs.some((a) => a.operator === 'judge'))
      ? new JudgeRunner({
          client: tenant.client,
          judges: opts.judges,
          roleContent: (role) => judgeRoles.get(role) ?? '',
          cache: judgeCache(opts.baseline?.report),
          hasWs: tenant.target.wsUrl !== undefined,
          signal: opts.signal,
        })
      : undefined;
  const outcome = await runTests({
    client: tenant.client,
    runs: opts.runs,
    concurrency: opts.concurrency,
    bail: opts.bail,
    strictEnd: opts.strictEnd,
    signal: opts.signal,
    events: opts.events,
    ...(opts.baseline && { baseline: opts.baseline }),
    ...(opts.assertions && { assertions: opts.assertions }),
    ...(judging && { judges: judging }),
  });
  const finishedAt = new Date();
  const durationMs = performance.now() - started;
  // One line per snapshot file written and per obsolete snapshot.
  const notes = opts.assertions ? await opts.assertions.finish() : [];
  if (outcome.tenantProblem !== undefined) {
    throw new RoleflowError(`tenant ${tenant.target.name} cannot run the tests: ${outcome.tenantProblem}; the run was stopped`);
  }
  // …and after the last (snapshots written included); an interruption does not wait for them.
  const [rolesAtEnd, treeAtEnd] = outcome.interrupted ? [] : await Promise.all([listRoles(), opts.workTree('end')]);
  const roles = rolesRecord(tenant.target.name, rolesAtStart, rolesAtEnd, opts.rolesIgnore);
  if (roles.note !== undefined) notes.push(roles.note);
  const report = buildRunReport(
    {
      version: packageVersion(),
      tenant: {
        name: tenant.target.name,
        base_url: shownUrl(tenant.location),
        ...(tenant.target.wsUrl !== undefined && { ws_url: shownUrl(tenant.target.wsUrl) }),
      },
      ...(opts.shard && { shard: opts.shard }),
      ...(opts.shardPlan && { shardPlan: opts.shardPlan }),
      ...(opts.minPassRate !== undefined && { minPassRate: opts.minPassRate, minPassRateSetBy: opts.minPassRateSetBy }),
      ...(opts.commit && { commit: opts.commit }),
      ...(opts.selection && { selection: opts.selection }),
      ...(roles.record && { rolesDigest: roles.record }),
      workTree: combineWorkTrees(treeAtEnd === undefined ? [treeAtStart] : [treeAtStart, treeAtEnd]),
      startedAt,
      finishedAt,
      durationMs,
      bailed: outcome.bailed,
      interrupted: outcome.interrupted,
      results: outcome.results,
    },
    opts.redactor,
  );
  return { report, interrupted: outcome.interrupted, notes };
}
