import { planSummaryLine } from '../../core/plan/index.js';
import { configuredTenant, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { FlowTestFile } from '../../core/flows/index.js';
import { comparePreview, previewDocument, rolesDiffer, type PreviewDocument, type PreviewSide } from '../../core/preview/index.js';
import { plural, quote, type RoleFile } from '../../core/roles/index.js';
import type { PlannedRun } from '../../core/runs/index.js';
import { loadCommitRoles } from '../../files/git/commit-roles.js';
import { currentCommit, treeState } from '../../files/git/git-commit.js';
import { flowsDirOf } from '../../files/flows/flow-files.js';
import { loadRoleFiles, rolesDirOf } from '../../files/role-files.js';
import { workTreeState } from '../../files/git/work-tree.js';
import type { RunReport } from '../../report/model.js';
import { isEmbedded, type OpenTenant } from '../../tenant/open-tenant.js';
import { executePlan } from '../roles/apply-plan.js';
import { journalFor, withJournal } from '../journal.js';
import { makeFreshPlan } from '../roles/fresh-plan.js';
import { refuseBrokenPlan } from '../roles/saved-plan.js';
import { refuseHeadAfterBase } from './preview-guards.js';
import { readJsonReports } from '../read-reports.js';
import type { Ports } from '../ports.js';
import { loadFlowTests, prepareAssertions, runsFor, runTestSession } from '../flows/test-session.js';

/** What the two sides are run with. */
export interface PreviewSidesOptions {
  config: Config;
  /** `--tenant`: required, and marked `preview: true`. */
  tenant: string | undefined;
  /** `--base REF` or `--base-report FILE`. */
  base: { ref: string } | { report: string };
  /** PATH arguments: the flow tests to run (default: the flows folder). */
  paths: readonly string[];
  /** `report compare`'s threshold for latency changes. */
  threshold: number;
  /** Opens the preview tenant by name (with the command's --base-url and --ws-url). */
  open(name: string): Promise<OpenTenant>;
  /** Ctrl-C: nothing new starts. */
  signal: AbortSignal;
}

export interface PreviewOutcome {
  document: PreviewDocument;
  /** Each side's test report, for the HTML page (the base's is absent when it came from `--base-report`… then it is that report). */
  reports: { base: RunReport; head: RunReport };
  interrupted: boolean;
  /** The Roles the tenant was left with: a side's in full, or part of them (its apply interrupted). */
  holds: { side: 'base' | 'head'; part: boolean };
}

/** A base report older than this is named as old. */
const STALE_BASE_MS = 7 * 24 * 3600_000;

/**
 * The behaviour diff: on a tenant marked `preview: true`, apply the base's Roles (git REF's role
 * files, prune included) and run the flow tests, then apply the work tree's and run them again,
 * and compare per test. With `--base-report`, the base is that earlier run's report and only the
 * head side runs. Every check that can refuse (the tenant, the files, the size of the run) comes
 * before anything is sent. Afterwards the tenant holds the work tree's Roles.
 */
export async function previewSides(opts: PreviewSidesOptions, ports: Ports): Promise<PreviewOutcome> {
  const name = previewTenant(opts.config, opts.tenant);
  const { cwd, env, output } = ports;
  const { config } = opts;
  const rolesDir = rolesDirOf(cwd, config, undefined);
  const headFiles = await loadRoleFiles(cwd, rolesDir);
  if (!headFiles.ok) throw new InvalidFilesError(headFiles.issues);
  const baseRoles = 'ref' in opts.base ? await loadCommitRoles(cwd, config, opts.base.ref, undefined) : undefined;
  const baseReport = 'report' in opts.base ? await readBaseReport(cwd, opts.base.report, name, ports.clock.now(), (line) => output.err(line)) : undefined;
  const flows = await loadFlowTests(cwd, config, opts.paths);
  const tenant = await opts.open(name);
  try {
    const { runs, secrets } = runsFor(tenant, flows, {}, {}, env);
    output.addSecrets(secrets);
    const perSide = runs.reduce((n, r) => n + (r.skip === undefined && r.error === undefined ? r.test.repeat : 0), 0);
    const executions = perSide * (baseRoles ? 2 : 1);
    if (executions > config.preview.maxExecutions) {
      throw new RoleflowError(
        `preview would start ${executions} flow executions on tenant ${quote(name)} (${perSide} a side), more than preview.max_executions (${config.preview.maxExecutions}): narrow it with PATH arguments, or raise the limit in the config`,
        'guard',
      );
    }
    if (baseRoles) {
      // The base's plan, then the head's as it will be once the base is applied: a guard refusing either refuses now.
      const fresh = await makeFreshPlan({ cwd, config: baseRoles.config, rolesDir, prune: true, allowEmptyPrune: true, open: () => Promise.resolve(tenant), now: ports.clock.now(), files: Promise.resolve({ ok: true, value: [...baseRoles.files] }), planPolicy: false, env });
      refuseBrokenPlan(fresh.plan);
      refuseHeadAfterBase(fresh.plan, fresh.remote, headFiles.value, config, tenant, ports.clock.now());
    }
    const head = await headState(cwd, config, env);
    output.err(`preview on tenant ${quote(name)}: ${plural(executions, 'flow execution')} (${plural(runs.length, 'test')} × transport${baseRoles ? ', on each side' : ''})`);
    const side = (label: 'base' | 'head', files: readonly RoleFile[], sideConfig: Config) =>
      runSide({ label, files, config: sideConfig, flows, runs, tenant, opts, ports, rolesDirAbs: rolesDir, commit: label === 'base' ? baseRoles?.at.commit : head.commit, dirty: label === 'base' ? false : head.dirty });
    const base = baseRoles ? await side('base', baseRoles.files, baseRoles.config) : { report: baseReport!.report, contamination: [], interrupted: false, partial: false };
    const after = base.interrupted ? undefined : await side('head', headFiles.value, config);
    const headReport = after?.report ?? emptyReport(base.report);
    const comparison = comparePreview(base.report as PreviewSide, headReport as PreviewSide, opts.threshold);
    const interrupted = base.interrupted || (after?.interrupted ?? false);
    const contamination = [...base.contamination.map((l) => `base: ${l}`), ...(after?.contamination ?? []).map((l) => `head: ${l}`)];
    const document = previewDocument(
      {
        tenant: name,
        base: baseRoles
          ? { ref: baseRoles.at.ref, commit: baseRoles.at.commit }
          : { ref: null, commit: baseReport!.report.commit ?? null, report: 'report' in opts.base ? opts.base.report : '', age: baseReport!.age },
        head: { commit: head.commit ?? null, dirty: head.dirty },
        contaminated: contamination.length > 0,
        contamination,
        ...(interrupted && { interrupted: true as const }),
        executions: base.report.summary.executions * (baseRoles ? 1 : 0) + headReport.summary.executions,
      },
      comparison,
    );
    const holds = after ? { side: 'head' as const, part: after.partial } : { side: 'base' as const, part: base.partial };
    return { document, reports: { base: base.report, head: headReport }, interrupted, holds };
  } finally {
    await tenant.close();
  }
}

/** The tenant preview may use: named, and marked `preview: true` (the embedded one: `local.preview: true`). Else refused, exit 4. */
export function previewTenant(config: Config, name: string | undefined): string {
  const how = 'mark a tenant set aside for previews with `preview: true` under tenants.NAME in the config (the embedded tenant: local.preview: true), and name it with --tenant';
  if (name === undefined) throw new RoleflowError(`preview applies other Roles to a tenant and prunes it: it needs --tenant NAME; ${how}`, 'guard');
  const marked = isEmbedded(config, { tenant: name }) ? config.local.preview : configuredTenant(config, name)?.preview === true;
  if (!marked) throw new RoleflowError(`tenant ${quote(name)} is not marked preview: true: preview applies other Roles to it and prunes it, so it runs only on a tenant set aside for that; ${how}`, 'guard');
  return name;
}

interface SideResult {
  report: RunReport;
  /** How the tenant's Roles changed while the tests ran (empty: they did not). */
  contamination: string[];
  interrupted: boolean;
  /** Ctrl-C stopped the apply of the side's Roles midway: the tenant holds part of them, and no test ran. */
  partial: boolean;
}

/** One side: its Roles applied with prune, the tenant listed, the tests run, the tenant listed again. */
async function runSide(s: {
  label: 'base' | 'head';
  files: readonly RoleFile[];
  config: Config;
  flows: readonly FlowTestFile[];
  runs: PlannedRun[];
  tenant: OpenTenant;
  opts: PreviewSidesOptions;
  ports: Ports;
  rolesDirAbs: ReturnType<typeof rolesDirOf>;
  commit: string | undefined;
  /** Whether the side's role files differ from `commit` (the head's may). */
  dirty?: boolean | null;
}): Promise<SideResult> {
  const { tenant, ports, opts } = s;
  const planned = () =>
    makeFreshPlan({
      cwd: ports.cwd,
      config: s.config,
      rolesDir: s.rolesDirAbs,
      prune: true,
      allowEmptyPrune: true,
      open: () => Promise.resolve(tenant),
      now: ports.clock.now(),
      files: Promise.resolve({ ok: true, value: [...s.files] }),
      // A preview tenant takes any Roles: plan policy is for plan, apply and promote.
      planPolicy: false,
      env: ports.env,
    });
  const fresh = await planned();
  refuseBrokenPlan(fresh.plan);
  let partial = false;
  if (fresh.plan.changes.length > 0) {
    // Journalled like any apply, marked as preview's: the commit is the side's, whose files it applies.
    const journal = await journalFor(ports.cwd, ports.env, opts.config, tenant, 'preview', (line) => ports.output.err(line), { commit: s.commit ?? null, dirty: s.label === 'head' && s.dirty !== false, preview: true });
    const { outcomes } = await withJournal(fresh.plan, fresh.remote, journal, async () => ({
      outcomes: await executePlan(fresh.plan, tenant.client, { concurrency: s.config.roles.concurrency, stopped: () => opts.signal.aborted }),
      interrupted: opts.signal.aborted,
    }));
    // Ctrl-C leaves the rest not started: an interruption, not a failure.
    partial = outcomes.some((o) => o.status === 'not_started');
    const failed = outcomes.filter((o) => !['created', 'updated', 'deleted', 'not_started'].includes(o.status));
    if (failed.length > 0) {
      const first = failed[0]!;
      throw new RoleflowError(`preview: applying the ${s.label} Roles to tenant ${quote(tenant.target.name)} did not complete: ${quote(first.name)} ${first.status}${first.error ? ` (${first.error})` : ''}${failed.length > 1 ? `, and ${failed.length - 1} more` : ''}`);
    }
  }
  ports.output.err(`${s.label}: ${fresh.plan.changes.length === 0 ? 'the tenant already held these Roles' : `${partial ? 'applied in part, interrupted' : 'applied'} (${planSummaryLine(fresh.plan)})`}`);
  // Listed after the apply: the Roles the tests run against, the plan of them empty.
  const check = partial ? undefined : await planned();
  const contamination = check && check.plan.changes.length > 0 ? [`the tenant did not hold the ${s.label} Roles after they were applied (${planSummaryLine(check.plan)})`] : [];
  const assertions = await prepareAssertions(ports.cwd, s.config, s.flows, { update: false, env: ports.env, tenant: tenant.target.name, roleFiles: s.files, readOnly: true });
  const { report, interrupted } = await runTestSession({
    tenant,
    runs: s.runs,
    concurrency: s.config.flows.concurrency,
    bail: false,
    strictEnd: s.config.flows.strictEnd,
    signal: opts.signal,
    events: {},
    shard: undefined,
    redactor: ports.output.redactor,
    assertions,
    commit: s.commit,
    rolesIgnore: s.config.roles.ignore,
    judges: s.config.judges,
    workTree: () => workTreeState(ports.cwd, {}),
  });
  if (check) contamination.push(...rolesDiffer(check.remote, await tenant.client.listRoles()));
  return { report, contamination, interrupted, partial };
}

/** The commit checked out and whether the role files, flow tests or config differ from it (null: not in git). */
async function headState(cwd: string, config: Config, env: Record<string, string | undefined>): Promise<{ commit: string | undefined; dirty: boolean | null }> {
  const { commit } = await currentCommit(cwd, env);
  const state = await treeState(cwd, [rolesDirOf(cwd, config, undefined).abs, flowsDirOf(cwd, config, undefined).abs]);
  return { commit, dirty: state === undefined ? null : state.uncommitted.length > 0 };
}

/** `--base-report FILE`: a report of this tenant, its commit and age said (older than a week: a warning). */
async function readBaseReport(cwd: string, file: string, tenant: string, now: Date, note: (line: string) => void): Promise<{ report: RunReport; age: string }> {
  const [read] = await readJsonReports(cwd, [file]);
  const report = read!.report;
  if (report.tenant.name !== tenant) {
    throw new RoleflowError(`${file} is a report of tenant ${quote(report.tenant.name)}, not of ${quote(tenant)}: the base must be a run on the preview tenant`, 'usage');
  }
  const ms = now.getTime() - Date.parse(report.finished_at);
  const age = Number.isFinite(ms) ? ageText(ms) : 'unknown age';
  note(`base: ${file}, a run at commit ${report.commit ?? '(none recorded)'}, ${age} old`);
  if (ms > STALE_BASE_MS) note(`warning: ${file} is ${age} old: the tenant's flows may have changed since; a fresh base (--base REF) compares like with like`);
  return { report, age };
}

function ageText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return plural(Math.max(0, minutes), 'minute');
  const hours = Math.round(minutes / 60);
  return hours < 48 ? plural(hours, 'hour') : plural(Math.round(hours / 24), 'day');
}

/** The head of an interrupted preview: no test ran. */
function emptyReport(like: RunReport): RunReport {
  return { ...like, results: [], summary: { ...like.summary, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, not_run: 0, executions: 0 } };
}
