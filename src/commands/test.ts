import { resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import type { Baseline } from '../core/compare/index.js';
import type { PlannedRun, Shard, WorkTreeRecord } from '../core/runs/index.js';
import { MAX_REPEAT } from '../core/flows/types.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { RunSelection } from '../report/model.js';
import type { ReporterSpec } from '../report/reporters.js';
import type { AssertionFiles } from '../run/assertions.js';
import type { LoopSelection, SelectionFlags } from '../run/test-session.js';
import type { LoopFlags, TestLoop } from '../run/test-loop.js';
import type { RerunSet } from '../core/loop/index.js';
import type { ShardPlan } from '../core/shards/index.js';
import { ManyTenantsCommand } from './tenant-command.js';

export class TestCommand extends ManyTenantsCommand {
  static override paths = [['test']];
  static override usage = Command.Usage({
    category: 'Flow tests',
    description: 'Run flow tests against the tenant over HTTPS and WebSocket',
    details: `
      Runs the flow tests in the given files and folders (default: \`flows/\`, or \`flows.dir\` in the
      config): every \`*.yaml\` / \`*.yml\` file, each test over each of its transports (default: both
      where the tenant has a ws_url), \`repeat\` times. Nothing runs if any file is invalid.

      Reporters (\`--reporter NAME[=FILE]\`, repeatable; default \`console\`): \`console\`, \`json\`
      (default file roleflow-report.json), \`junit\` (roleflow-junit.xml), \`github\` (annotations, and a
      summary appended to \`$GITHUB_STEP_SUMMARY\` or FILE), \`html\` (roleflow-report.html: one
      self-contained page with the pass/fail matrix, the failures, latency distributions and each
      execution's step waterfall or message timeline). \`-\` as FILE is stdout; \`--json\` is
      \`--reporter json=-\`.

      \`--shard I/N\` runs a deterministic slice for a CI matrix; \`roleflow report merge\` combines the
      JSON reports of the shards. \`--timings REPORT\` deals the tests by their duration in that
      report (longest first, each to the least loaded shard; a test it lacks at the median) instead
      of round-robin; every shard's report records the plan's digest, and \`report merge\` refuses
      shards of different plans. \`--shard auto\` reads the shard from Kubernetes
      (\`JOB_COMPLETION_INDEX\`, with \`--shard-total N\`), Buildkite (\`BUILDKITE_PARALLEL_JOB\`,
      \`BUILDKITE_PARALLEL_JOB_COUNT\`) or CircleCI (\`CIRCLE_NODE_INDEX\`, \`CIRCLE_NODE_TOTAL\`).
      With \`flows.concurrency_total: T\`, each of N shards runs max(1, floor(T / N)) executions at
      once (\`--concurrency\` only lowers it). \`roleflow shards\` plans the matrix.

      Every run records its failed, errored and skipped tests in \`.roleflow/last-run.json\` (beside
      the config, git-ignored). \`--last-failed\` runs the failed and errored ones again (none: it says
      so and exits 0); \`--failed-from REPORT\` takes them from a JSON report; \`--only errors\` keeps
      only those the tenant or the network failed (status error), not an assertion.
      \`report merge FIRST RERUN --prefer-last\` then makes one report of both. \`tags: [smoke]\` on a
      file or a test: \`--tag\` runs the tests with any tag given, \`--exclude-tag\` leaves those out.
      \`--min-pass-rate 95%\` (or \`flows.min_pass_rate\`) judges the suite as a whole: every failure
      is reported, and the exit code is 0 when passed ÷ (passed + failed) reaches the rate.

      \`--watch\`: the tests run, then again whenever a flow test file, a schema or snapshot file it
      uses, or a role file is saved: a test file reruns its tests; a role file is applied first (to
      the embedded tenant, or a tenant marked \`watch_apply: true\`) and reruns the tests whose flows
      use that Role (the embedded tenant's flows file says which; else every test). An invalid file
      or a failing run shows its error and the watch goes on; Ctrl-C ends it with 130. The JSON report records what the tests ran against, which
      \`roleflow promote\` checks: the \`commit\`, the run's \`selection\` (the flows folder, PATH
      arguments, \`--grep\`, \`--transport\`), a digest of the tenant's Roles listed before the
      first execution and after the last (\`roles_digest\`), and whether the git work tree was clean
      (\`work_tree\`).

      Every execution records how it ended (\`ended_by\` in the JSON report): its \`until\` reached,
      \`quiet\` (nothing more came for \`until.quiet\`: the console line says so), \`failed_step\`,
      \`timeout\`, \`error\` or \`interrupted\`. \`--strict-end\` (or \`flows.strict_end: true\`) makes a
      quiet end an error: only an \`until\` rule says a flow is over.

      \`snapshot\` assertions compare with \`__snapshots__/<file>.snap.yaml\`; a missing one is written (it fails
      when \`CI\` is set); \`-u\` (\`--update-snapshots\`) rewrites them all and removes obsolete ones.

      \`--baseline FILE\` (a JSON report of an earlier run) judges relative latency budgets such as
      \`p95: "< baseline + 20%"\` against the same statistic of the same test × transport in it;
      without a baseline, or where it lacks the test or its samples, they are skipped with the reason.

      \`--tenant\` more than once, or \`--all-tenants\` (every configured tenant but the embedded
      \`local\`): the tests run against each tenant in turn, each under a \`=== tenant NAME ===\`
      heading, and each report file gets the tenant in its name before the extension
      (\`--reporter json=report.json\` writes \`report.staging.json\`, \`report.production.json\`):
      one JSON report per tenant, as \`report merge\`, \`report compare\` and \`promote\` read them.

      Ctrl-C (SIGINT) or SIGTERM starts nothing new, ends the executions in flight as interrupted,
      writes every report (what did not finish is not run), prints the summary and exits 130.

      A run in which no test ran — every result skipped (by \`skip:\`, over a transport the tenant
      lacks, or with every assertion skipped), \`--grep\` or the files matching no test, an empty
      shard — exits 1 with one line saying why; \`--pass-with-no-tests\` makes it exit 0 (the
      reports are written either way).

      Exit codes: 0 every test that ran passed (some may be skipped), or the pass rate reached
      --min-pass-rate, 3 some test failed, 1 no test ran, invalid files, bad usage, or a tenant that cannot be reached or refuses the token, 130
      interrupted.
    `,
    examples: [
      ['Run every test in flows/', 'roleflow test'],
      ['Only the WebSocket transport, tests whose name mentions refund', 'roleflow test --transport ws --grep refund'],
      ['An HTML report to open in a browser', 'roleflow test --repeat 5 --reporter console --reporter html'],
      ['Latency budgets relative to the main branch\'s report ("< baseline + 20%")', 'roleflow test --repeat 10 --baseline main-report.json'],
      ['Latency percentiles from 10 repeats', 'roleflow test flows/summarize.yaml --repeat 10'],
      ['Without the line of each assertion a transport cannot check', 'roleflow test --quiet'],
      ['Write (or rewrite) the snapshots of snapshot assertions, and remove obsolete ones', 'roleflow test -u'],
      ['Against every configured tenant: report.staging.json, report.production.json, …', 'roleflow test --all-tenants --reporter console --reporter json=report.json'],
      ['In CI: shard 1 of 4, with JUnit and GitHub reporters', 'roleflow test --shard 1/4 --reporter console --reporter junit --reporter json=report-1.json --reporter github'],
      ['Shard 2 of 8, the tests dealt by their durations in the last merged report', 'roleflow test --shard 2/8 --timings roleflow-timings.json --reporter json=report-2.json'],
      ['Again, only the tests that failed last time', 'roleflow test --last-failed'],
      ['Only the tests a tenant or network problem failed in a report', 'roleflow test --failed-from report.json --only errors'],
      ['The smoke tests, not the slow ones; 95% passing is a pass', 'roleflow test --tag smoke --exclude-tag slow --min-pass-rate 95%'],
      ['Run again on every save', 'roleflow test --watch flows/'],
    ],
  });

  targets = Option.Rest({ name: 'path' });
  transport = Option.String('--transport', { description: 'Only this transport: https or ws', validator: t.isEnum(['https', 'ws'] as const) });
  reporter = Option.Array('--reporter', [], { description: 'console, json, junit, github or html, with =FILE for a file (repeatable)' });
  concurrency = Option.String('--concurrency', {
    description: 'Executions at once (default: flows.concurrency, 4)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 256)]),
  });
  repeat = Option.String('--repeat', {
    description: `Repeats per test and transport, overriding the files' repeat (at most ${MAX_REPEAT})`,
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, MAX_REPEAT)]),
  });
  shard = Option.String('--shard', { description: 'Run slice I of N (e.g. 2/4); auto: from Kubernetes, Buildkite or CircleCI variables' });
  shardTotal = Option.String('--shard-total', {
    description: '--shard auto in a Kubernetes Indexed Job: the number of shards (the Job\'s completions)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100_000)]),
  });
  timings = Option.String('--timings', { description: 'A JSON report: --shard deals the tests by their duration there (longest first), not round-robin' });
  tag = Option.Array('--tag', [], { description: 'Only tests with this tag (repeatable: any of them)' });
  excludeTag = Option.Array('--exclude-tag', [], { description: 'Not the tests with this tag (repeatable)' });
  lastFailed = Option.Boolean('--last-failed', false, { description: 'Only the tests that failed or errored in the last run (.roleflow/last-run.json)' });
  failedFrom = Option.String('--failed-from', { description: 'Only the tests that failed or errored in this JSON report' });
  only = Option.String('--only', { description: 'With --last-failed or --failed-from: errors (only tenant or network failures, not assertions)' });
  minPassRate = Option.String('--min-pass-rate', { description: 'Judge the suite as a whole: exit 0 when at least this share passed (95%); default flows.min_pass_rate' });
  watch = Option.Boolean('--watch', false, { description: 'Run again on every saved test, schema, snapshot or role file; Ctrl-C ends it' });
  grep = Option.String('--grep', { description: 'Only tests whose "file > name" or name matches this regular expression' });
  bail = Option.Boolean('--bail', false, { description: 'Start no new execution after the first failed test' });
  strictEnd = Option.Boolean('--strict-end', {
    description: 'An execution that ends by quiet, not by its until rule, is an error (default: flows.strict_end, false)',
  });
  quiet = Option.Boolean('--quiet', false, { description: 'No line per skipped assertion on the console (the totals still count them)' });
  baseline = Option.String('--baseline', { description: 'A JSON report that relative budgets ("< baseline + 20%") are judged against' });
  json = Option.Boolean('--json', false, { description: 'The JSON report on stdout (same as --reporter json=-)' });
  updateSnapshots = Option.Boolean('-u,--update-snapshots', false, { description: 'Write every snapshot the run sees (even under CI), remove obsolete ones' });
  passWithNoTests = Option.Boolean('--pass-with-no-tests', false, {
    description: 'A run in which no test ran (all skipped, --grep matching nothing, an empty shard) exits 0, not 1',
  });

  async execute(): Promise<number> {
    const [{ parseReporters }, session, { readTestLoop }] = await Promise.all([import('../report/reporters.js'), import('../run/test-session.js'), import('../run/test-loop.js')]);
    const reporters = parseReporters(this.reporter, this.json);
    if (!reporters.ok) throw new RoleflowError(reporters.error, 'usage');
    session.parseSelectionFlags(this.selectionFlags(), this.context.env);
    if (this.watch && (this.lastFailed || this.failedFrom !== undefined)) {
      throw new RoleflowError('--watch reruns the tests whose files change: not with --last-failed or --failed-from', 'usage');
    }
    const config = await this.loadConfig();
    const loop = await readTestLoop(this.context.cwd, config, this.loopFlags());
    const several = await this.severalTenants(config);
    if (several !== undefined) {
      if (this.watch) throw new RoleflowError('--watch runs the tests of one tenant: not with several (--all-tenants, --tenant more than once)', 'usage');
      return this.testTenants(config, several, reporters.value, loop);
    }
    if (this.watch) return this.watchTests(config, loop, reporters.value);
    return this.testOnce(config, loop, reporters.value, this.targets);
  }

  /** The tests of `targets` against the one tenant, once. */
  private async testOnce(config: Config, loop: TestLoop, reporters: ReporterSpec[], targets: readonly string[]): Promise<number> {
    const session = await import('../run/test-session.js');
    const flags = this.selectionFlags();
    const parsed = session.parseSelectionFlags(flags, this.context.env);
    const files = await session.loadFlowTests(this.context.cwd, config, targets);
    const baseline = await session.loadBaseline(this.context.cwd, this.baseline);
    // Opened (nothing sent yet) to know its name: not_leaks looks for the Roles rendered for it.
    const tenant = await this.openTenant(config);
    const rerun = await loop.rerun?.(tenant.target.name);
    if (rerun?.nothing !== undefined) {
      this.io.err(rerun.nothing);
      await tenant.close();
      return ExitCode.Ok;
    }
    const assertions = await session.prepareAssertions(this.context.cwd, config, files, { update: this.updateSnapshots, env: this.context.env, tenant: tenant.target.name });
    const { runs, secrets, plan } = session.runsFor(tenant, files, flags, { ...parsed, ...loopSelection(loop, rerun) }, this.context.env);
    this.io.addSecrets(secrets);
    const selection = session.runSelection(this.context.cwd, config, targets, { ...flags, ...(rerun && { rerun: rerunRecord(rerun) }) });
    return this.run(tenant, runs, reporters, config, { shard: parsed.shard, selection, plan }, baseline, assertions, loop);
  }

  /** `--watch`: the tests once, then again on every saved change (see `watchTests`), until Ctrl-C. */
  private async watchTests(config: Config, loop: TestLoop, reporters: ReporterSpec[]): Promise<number> {
    const [{ watchTests }, { isEmbedded }, { describeError }] = await Promise.all([import('../run/watch.js'), import('../tenant/open-tenant.js'), import('./error-line.js')]);
    this.watchSignal = this.interruption(() => this.io.err('Interrupted: ending the executions in flight; the watch ends.'));
    return watchTests(
      { cwd: this.context.cwd, config, paths: this.targets, embedded: isEmbedded(config, { tenant: this.tenant, baseUrl: this.baseUrl }) },
      {
        run: (paths) => {
          this.treeAtStart = undefined;
          return this.testOnce(config, loop, reporters, paths ?? this.targets);
        },
        openTenant: () => this.openTenant(config),
        out: (line) => this.io.out(line),
        err: (line) => this.io.err(line),
        describe: (error) => describeError(error, this.verbose, this.path),
        signal: this.watchSignal,
        now: () => new Date(),
      },
    );
  }

  /** The one Ctrl-C signal of a watch, shared by its runs. */
  private watchSignal: AbortSignal | undefined;

  /**
   * The flow tests against each tenant in turn, each as a run of its own: its console section under
   * a heading, its report files with the tenant in their names (see `testTenantsInOrder`).
   */
  private async testTenants(config: Config, names: string[], reporters: ReporterSpec[], loop: TestLoop): Promise<number> {
    const [session, { reportersOfTenant }, { testTenantsInOrder }] = await Promise.all([
      import('../run/test-session.js'),
      import('../report/reporters.js'),
      import('../run/tenants/test-tenants.js'),
    ]);
    const flags = this.selectionFlags();
    const parsed = session.parseSelectionFlags(flags, this.context.env);
    const files = await session.loadFlowTests(this.context.cwd, config, this.targets);
    const baseline = await session.loadBaseline(this.context.cwd, this.baseline);
    // Every tenant's config and token before any test starts anywhere.
    const opened = await this.openTenants(config, names);
    const testOne = async (name: string, i: number): Promise<number> => {
      const specs = reportersOfTenant(reporters, name);
      if (!specs.ok) throw new RoleflowError(specs.error, 'usage');
      const assertions = await session.prepareAssertions(this.context.cwd, config, files, { update: this.updateSnapshots, env: this.context.env, tenant: name });
      const tenant = opened[i]!;
      const rerun = await loop.rerun?.(name);
      if (rerun?.nothing !== undefined) {
        this.io.err(`tenant ${name}: ${rerun.nothing}`);
        return ExitCode.Ok;
      }
      const { runs, secrets, plan } = session.runsFor(tenant, files, flags, { ...parsed, ...loopSelection(loop, rerun) }, this.context.env);
      this.io.addSecrets(secrets);
      const selection = session.runSelection(this.context.cwd, config, this.targets, { ...flags, ...(rerun && { rerun: rerunRecord(rerun) }) });
      // A heading only over console output of its own: reports in files are announced on stderr.
      if (specs.value.some(consoleOnStdout)) this.io.out(`=== tenant ${name} ===`);
      return this.run(tenant, runs, specs.value, config, { shard: parsed.shard, selection, plan }, baseline, assertions, loop, name);
    };
    return testTenantsInOrder(names, testOne, { out: (line) => this.io.out(line), err: (line) => this.io.err(line) });
  }

  private selectionFlags(): SelectionFlags {
    return {
      grep: this.grep,
      shard: this.shard,
      shardTotal: this.shardTotal,
      transport: this.transport,
      repeat: this.repeat,
      passWithNoTests: this.passWithNoTests,
      tags: this.tag,
      excludeTags: this.excludeTag,
    };
  }

  private loopFlags(): LoopFlags {
    return {
      tags: this.tag,
      excludeTags: this.excludeTag,
      lastFailed: this.lastFailed,
      failedFrom: this.failedFrom,
      only: this.only,
      minPassRate: this.minPassRate,
      timings: this.timings,
      shard: this.shard,
    };
  }

  private testedCommit: Promise<string | undefined> | undefined;

  /** The commit the run tests (`currentCommit`), looked up once per command; its warning said once. */
  private commit(): Promise<string | undefined> {
    this.testedCommit ??= import('../files/git-commit.js').then(async ({ currentCommit }) => {
      const lookup = await currentCommit(this.context.cwd, this.context.env);
      if (lookup.warning !== undefined) this.io.err(lookup.warning);
      return lookup.commit;
    });
    return this.testedCommit;
  }

  /** Looked at once per run of the command (a watch looks again each time it runs). */
  private treeAtStart: Promise<WorkTreeRecord> | undefined;
  /** The report files this command wrote (absolute): a run over several tenants writes some before the next starts. */
  private readonly reportsWritten: string[] = [];

  /**
   * The work tree (`workTreeState`): at the start, looked at once per command, before any report
   * is written; at the end of each run, leaving out the reports written so far. The file stdout
   * was redirected to is never counted.
   */
  private async workTree(when: 'start' | 'end'): Promise<WorkTreeRecord> {
    const { workTreeState } = await import('../files/work-tree.js');
    const file = this.context.stdoutFile;
    if (when === 'end') return workTreeState(this.context.cwd, { paths: this.reportsWritten, ...(file && { file }) });
    this.treeAtStart ??= workTreeState(this.context.cwd, file && { file });
    return this.treeAtStart;
  }

  /** One tenant's run; `several`: its name, in a run over several tenants (its report files are always announced). */
  private async run(
    tenant: OpenTenant,
    runs: PlannedRun[],
    reporters: ReporterSpec[],
    { flows, roles }: Config,
    { shard, selection, plan }: { shard: Shard | undefined; selection: RunSelection; plan: ShardPlan | undefined },
    baseline: Baseline | undefined,
    assertions: AssertionFiles,
    loop: TestLoop,
    several?: string,
  ): Promise<number> {
    const [{ runTestSession }, { redactResult }, { renderTestResult, progressLine }, { writeReports }, { Progress }, { noTestRanReason, noTestRanError }, { shardConcurrency }, { recordRun }] = await Promise.all([
      import('../run/test-session.js'),
      import('../report/run-report.js'),
      import('../report/console.js'),
      import('../run/write-reports.js'),
      import('../terminal/test-progress.js'),
      import('../report/no-tests.js'),
      import('../core/shards/index.js'),
      import('../run/test-loop.js'),
    ]);
    const style = { color: this.colorFor('stdout'), quiet: this.quiet };
    const live = reporters.some(consoleOnStdout);
    const progress = live && this.canShowProgress() ? new Progress(this.context.stderr, (...a) => this.io.redact(progressLine(...a))) : undefined;
    this.io.showLiveLine(progress);
    const signal = this.watchSignal ?? this.interruption(() => {
      progress?.clear();
      this.io.err('Interrupted: ending the executions in flight; no new one starts; writing the reports (Ctrl-C again quits at once).');
    });
    const { report, interrupted, notes } = await runTestSession({
      tenant,
      runs,
      concurrency: shardConcurrency({ requested: this.concurrency, configured: flows.concurrency, total: flows.concurrencyTotal, shards: shard?.total ?? 1 }),
      bail: this.bail,
      strictEnd: this.strictEnd ?? flows.strictEnd,
      signal,
      shard,
      selection,
      ...(plan && { shardPlan: { digest: plan.digest, by: plan.by, ...(loop.timings && { timings: loop.timings.file }) } }),
      minPassRate: loop.minPassRate,
      redactor: this.io.redactor,
      assertions,
      baseline,
      commit: await this.commit(),
      rolesIgnore: roles.ignore,
      workTree: (when) => this.workTree(when),
      events: {
        started: (label, done, total) => progress?.start(label, done, total),
        finished: (label, done, total) => progress?.finish(label, done, total),
        tested: (result) => {
          if (!live) return;
          progress?.clear();
          this.io.out(renderTestResult(redactResult(result, this.io.redactor), style));
          progress?.draw();
        },
      },
    });
    progress?.clear();
    for (const note of notes) this.io.err(note);
    await tenant.close();
    const written = await writeReports(report, reporters, this.reportSinks(style, live));
    this.reportsWritten.push(...written.map((file) => resolve(this.context.cwd, file)));
    if (written.length > 0 && (live || several !== undefined)) this.io.err(`${live || several === undefined ? '' : `tenant ${several}: `}wrote ${written.join(', ')}`);
    await recordRun(loop, report);
    if (interrupted) return ExitCode.Interrupted;
    // --min-pass-rate: the failures are reported; the exit code follows the rate.
    if (report.summary.failed > 0) return report.gate?.passed ? ExitCode.Ok : ExitCode.TestsFailed;
    const none = noTestRanReason(report);
    if (none === undefined) return ExitCode.Ok;
    if (this.passWithNoTests) {
      this.io.err(`${several === undefined ? '' : `tenant ${several}: `}${none} (--pass-with-no-tests)`);
      return ExitCode.Ok;
    }
    this.io.err(`error: ${several === undefined ? '' : `tenant ${several}: `}${noTestRanError(none)}`);
    return ExitCode.Error;
  }
}

/** What a run's selection takes from the loop flags: tags, the tests to rerun, timings. */
function loopSelection(loop: TestLoop, rerun: RerunSet | undefined): LoopSelection {
  return { ...(loop.tags && { tags: loop.tags }), ...(rerun && { only: rerun.keys }), ...(loop.timings && { timings: loop.timings.durations }) };
}

function rerunRecord(rerun: RerunSet): { from: string; only?: 'errors' } {
  return { from: rerun.from, ...(rerun.only && { only: rerun.only }) };
}

function consoleOnStdout(r: ReporterSpec): boolean {
  return r.name === 'console' && (r.file === undefined || r.file === '-');
}
