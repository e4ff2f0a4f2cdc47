import { resolve } from 'node:path';
import type { Baseline } from '../../core/compare/index.js';
import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import type { Transport } from '../../core/flows/index.js';
import type { FlowTestFile } from '../../core/flows/index.js';
import type { WorkTreeRecord } from '../../core/runs/index.js';
import { safeText } from '../../core/text/safe-text.js';
import { currentCommit } from '../../files/git/git-commit.js';
import { notRegularFiles } from '../../files/runs/report-file.js';
import { ownFlowsNote } from '../../files/config-file.js';
import { workTreeState } from '../../files/git/work-tree.js';
import { noTestRanError, noTestRanReason } from '../../report/no-tests.js';
import type { Reporter } from '../../report/reporter.js';
import { createReporters, parseReporters, reportersOfTenant, type ReporterSpec } from '../../report/reporters.js';
import { redactResult } from '../../report/run-report.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { reportSinks } from '../report/report.js';
import { judgeAgreement } from './judge-agreement.js';
import { openOneTenant, openTenants, severalTenants, type ManyTenantsOptions } from '../tenants.js';
import { shardConcurrency } from '../../core/runs/shards/index.js';
import { loopSelection, readTestLoop, recordRun, rerunRecord, shardPlanRecord, type LoopFlags, type TestLoop } from './test-loop.js';
import { watchTest } from './watch.js';
import { testTenantsInOrder } from '../several-tenants.js';
import { loadBaseline, loadFlowTests, parseSelectionFlags, prepareAssertions, runsFor, runSelection, runTestSession, type SelectionFlags } from './test-session.js';

/** `test`'s options; the loop's (`--tag`, `--last-failed`, `--timings`, `--min-pass-rate`…) are `LoopFlags`. */
export interface TestOptions extends CommonOptions, ManyTenantsOptions, LoopFlags {
  /** PATH arguments: flow test files and folders (default: the flows folder). */
  paths: readonly string[];
  transport?: Transport | undefined;
  /** `--reporter NAME[=FILE]`. */
  reporters: readonly string[];
  concurrency?: number | undefined;
  repeat?: number | undefined;
  /** `--shard I/N`. */
  shard?: string | undefined;
  grep?: string | undefined;
  bail: boolean;
  strictEnd?: boolean | undefined;
  /** `--quiet`: no line per skipped assertion on the console. */
  quiet: boolean;
  /** `--baseline FILE`: a JSON report relative budgets are judged against. */
  baseline?: string | undefined;
  json: boolean;
  updateSnapshots: boolean;
  /** `--ci-update`: `-u` may write snapshots under CI. */
  ciUpdate?: boolean | undefined;
  passWithNoTests: boolean;
  /** `--shard-total N` (with `--shard auto`). */
  shardTotal?: number | undefined;
  watch?: boolean | undefined;
  /** `--no-judge`: judge assertions are skipped, never passed; no judge flow runs. */
  noJudge?: boolean;
  /** `--judges`: the judge cases of flows/_judges/ instead of the flow tests (`judgeAgreement`). */
  judges?: boolean;
}

/**
 * `roleflow test`: the flow tests against the tenant, or against each of several in turn (each a
 * run of its own: a heading over its console output, the tenant in its report files' names). The
 * same steps for each tenant: its assertions' files read, its runs chosen, the tests run with
 * every reporter, its exit code (0 passed, 3 a test failed, 1 none ran, 130 interrupted).
 */
export async function test(options: TestOptions, ports: Ports): Promise<number> {
  const reporters = parseReporters(options.reporters, options.json);
  if (!reporters.ok) throw new RoleflowError(reporters.error, 'usage');
  const { grep, shard, shardTotal, transport, repeat, passWithNoTests, tags, excludeTags } = options;
  const flags: SelectionFlags = { grep, shard, shardTotal, transport, repeat, passWithNoTests, tags, excludeTags };
  const parsed = parseSelectionFlags(flags, ports.env);
  const config = await configOf(options, ports);
  if (options.judges) return judgeAgreement(options, ports, config);
  const loop = await readTestLoop(ports.cwd, config, options);
  const several = await severalTenants(config, options);
  if (options.watch) return watchTest(options, ports, config, several, (paths, inner) => test({ ...options, watch: false, paths }, inner));
  const files = await loadFlowTests(ports.cwd, config, options.paths);
  const baseline = await loadBaseline(ports.cwd, options.baseline);
  const run = testRun(options, ports, config, loop, { files, baseline });
  let flowsNoted = false;
  const testOne = async (tenant: OpenTenant, specs: ReporterSpec[], name?: string): Promise<number> => {
    if (tenant.ownFlows !== undefined && !flowsNoted) ports.output.err(ownFlowsNote(tenant.ownFlows));
    flowsNoted ||= tenant.ownFlows !== undefined;
    const rerun = await loop.rerun?.(tenant.target.name);
    if (rerun?.note !== undefined) ports.output.err(rerun.note);
    if (rerun?.nothing !== undefined) {
      ports.output.err(`${name === undefined ? '' : `tenant ${name}: `}${rerun.nothing}`);
      await tenant.close();
      return ExitCode.Ok;
    }
    const assertions = await prepareAssertions(ports.cwd, config, files, { update: options.updateSnapshots, ciUpdate: options.ciUpdate === true, env: ports.env, tenant: tenant.target.name, noJudge: options.noJudge === true });
    const { runs, secrets, plan } = runsFor(tenant, files, flags, { ...parsed, ...loopSelection(loop, rerun) }, ports.env);
    ports.output.addSecrets(secrets);
    const selection = runSelection(ports.cwd, config, options.paths, { ...flags, ...(rerun && { rerun: rerunRecord(rerun) }) });
    // A heading only over console output of its own: reports in files are announced on stderr.
    if (name !== undefined && specs.some(consoleOnStdout)) ports.output.out(`=== tenant ${name} ===`);
    return run(tenant, { runs, shard: parsed.shard, assertions, selection, ...(plan && { shardPlan: shardPlanRecord(plan, loop) }) }, specs, name);
  };
  if (several === undefined) {
    // Opened (nothing sent yet) to know its name: not_leaks looks for the Roles rendered for it.
    return testOne(await openOneTenant(ports, config, options, 'test'), reporters.value);
  }
  // Every tenant's config and token before any test starts anywhere.
  const opened = await openTenants(ports, config, several);
  const asItIs = await notRegularFiles(ports.cwd, reporters.value.flatMap((r) => (r.file === undefined ? [] : [r.file])));
  const testTenant = (name: string, i: number): Promise<number> => {
    const specs = reportersOfTenant(reporters.value, name, asItIs);
    if (!specs.ok) throw new RoleflowError(specs.error, 'usage');
    return testOne(opened[i]!, specs.value, name);
  };
  return testTenantsInOrder(several, testTenant, { out: (line) => ports.output.out(line), err: (line) => ports.output.err(line) });
}

type Session = Parameters<typeof runTestSession>[0];

/**
 * The run of one tenant, as a function: the files, baseline and selection are the command's; the
 * commit and the work tree at the start are looked at once per command; the report files written
 * so far are left out of the work tree at each run's end.
 */
function testRun(options: TestOptions, ports: Ports, config: Config, loop: TestLoop, given: { files: readonly FlowTestFile[]; baseline: Baseline | undefined }) {
  const { output } = ports;
  let commit: Promise<string | undefined> | undefined;
  let treeAtStart: Promise<WorkTreeRecord> | undefined;
  const reportsWritten: string[] = [];
  const file = ports.terminal.stdoutFile;
  const workTree = (when: 'start' | 'end'): Promise<WorkTreeRecord> => {
    if (when === 'end') return workTreeState(ports.cwd, { paths: reportsWritten, ...(file && { file }) });
    return (treeAtStart ??= workTreeState(ports.cwd, file && { file }));
  };
  const testedCommit = () =>
    (commit ??= currentCommit(ports.cwd, ports.env).then((lookup) => {
      if (lookup.warning !== undefined) output.err(lookup.warning);
      return lookup.commit;
    }));

  /** One tenant's run; `several`: its name, in a run over several tenants (its report files are always announced). */
  return async (tenant: OpenTenant, planned: Pick<Session, 'runs' | 'shard' | 'assertions' | 'selection' | 'shardPlan'>, specs: ReporterSpec[], several?: string): Promise<number> => {
    const live = specs.some(consoleOnStdout);
    const status = live && ports.terminal.canShowProgress ? ports.terminal.statusLine() : undefined;
    output.showLiveLine(status);
    const sinks = reportSinks(ports);
    const reporters = createReporters(specs, sinks, { style: { color: output.color('stdout'), quiet: options.quiet }, live: true, status });
    const each = (hook: (r: Reporter) => void) => reporters.forEach(hook);
    const onResult = reporters.filter((r) => r.onTestResult !== undefined);
    // The runner labels each execution only for a reporter that shows them (the console's progress).
    const progress = reporters.some((r) => r.onExecutionStart !== undefined || r.onExecutionEnd !== undefined);
    const signal = ports.interruption(() => {
      status?.clear();
      output.err('Interrupted: ending the executions in flight; no new one starts; writing the reports (Ctrl-C again quits at once).');
    });
    const { report, interrupted, notes } = await runTestSession({
      tenant,
      ...planned,
      concurrency: shardConcurrency({ requested: options.concurrency, configured: config.flows.concurrency, total: config.flows.concurrencyTotal, shards: planned.shard?.total ?? 1 }),
      bail: options.bail,
      strictEnd: options.strictEnd ?? config.flows.strictEnd,
      signal,
      minPassRate: loop.minPassRate,
      minPassRateSetBy: loop.minPassRateSetBy,
      redactor: output.redactor,
      baseline: given.baseline,
      commit: await testedCommit(),
      rolesIgnore: config.roles.ignore,
      workTree,
      judges: config.judges,
      events: {
        ...(progress && {
          started: (label: string, done: number, total: number) => each((r) => r.onExecutionStart?.(label, done, total)),
          finished: (label: string, done: number, total: number) => each((r) => r.onExecutionEnd?.(label, done, total)),
        }),
        tested: (result) => {
          if (onResult.length === 0) return;
          const shown = redactResult(result, output.redactor);
          for (const r of onResult) r.onTestResult?.(shown);
        },
      },
    });
    status?.clear();
    for (const note of notes) output.err(note);
    await tenant.close();
    for (const reporter of reporters) await reporter.onRunEnd(report);
    const written = sinks.written;
    reportsWritten.push(...written.map((f) => resolve(ports.cwd, f)));
    if (written.length > 0 && (live || several !== undefined)) output.err(`${live || several === undefined ? '' : `tenant ${several}: `}wrote ${written.map(safeText).join(', ')}`);
    await recordRun(loop, report);
    if (interrupted) return ExitCode.Interrupted;
    // --min-pass-rate: the failures are reported; the exit code follows the rate.
    if (report.summary.failed > 0) return report.gate?.passed ? ExitCode.Ok : ExitCode.TestsFailed;
    const none = noTestRanReason(report);
    if (none === undefined) return ExitCode.Ok;
    const named = several === undefined ? '' : `tenant ${several}: `;
    if (options.passWithNoTests) {
      output.err(`${named}${none} (--pass-with-no-tests)`);
      return ExitCode.Ok;
    }
    output.err(`error: ${named}${noTestRanError(none)}`);
    return ExitCode.Error;
  };
}

function consoleOnStdout(r: ReporterSpec): boolean {
  return r.name === 'console' && (r.file === undefined || r.file === '-');
}
