import { safeText } from '../core/safe-text.js';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import type { Baseline } from '../core/compare/index.js';
import type { PlannedRun, Shard } from '../core/runs/index.js';
import { MAX_REPEAT } from '../core/flows/types.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { RunSelection } from '../report/model.js';
import type { ReporterSpec } from '../report/reporters.js';
import type { AssertionFiles } from '../run/assertions.js';
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
      JSON reports of the shards. The JSON report records the \`commit\` tested and the run's
      \`selection\` (PATH arguments, \`--grep\`, \`--transport\`): \`roleflow promote\` takes only a
      report of the whole suite.

      Every execution records how it ended (\`ended_by\` in the JSON report): its \`until\` reached,
      \`quiet\` (nothing more came for \`until.quiet\`: the console line says so), \`failed_step\`,
      \`timeout\`, \`error\` or \`interrupted\`. \`--strict-end\` (or \`flows.strict_end: true\`) makes a
      quiet end an error: only an \`until\` rule says a flow is over.

      \`snapshot\` assertions compare with \`__snapshots__/<file>.snap.yaml\`; a missing one is written (it fails
      when \`CI\` is set); \`-u\` (\`--update-snapshots\`) rewrites them all and removes obsolete ones, and
      is refused when \`CI\` is set unless \`--ci-update\`. A \`__snapshots__/\` that a symbolic link
      leads out of the repository is refused.

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

      Exit codes: 0 every test passed (or was skipped), 3 some test failed, 1 invalid files, bad
      usage, or a tenant that cannot be reached or refuses the token, 130 interrupted.
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
  shard = Option.String('--shard', { description: 'Run slice I of N (e.g. 2/4)' });
  grep = Option.String('--grep', { description: 'Only tests whose "file > name" or name matches this regular expression' });
  bail = Option.Boolean('--bail', false, { description: 'Start no new execution after the first failed test' });
  strictEnd = Option.Boolean('--strict-end', {
    description: 'An execution that ends by quiet, not by its until rule, is an error (default: flows.strict_end, false)',
  });
  quiet = Option.Boolean('--quiet', false, { description: 'No line per skipped assertion on the console (the totals still count them)' });
  baseline = Option.String('--baseline', { description: 'A JSON report that relative budgets ("< baseline + 20%") are judged against' });
  json = Option.Boolean('--json', false, { description: 'The JSON report on stdout (same as --reporter json=-)' });
  updateSnapshots = Option.Boolean('-u,--update-snapshots', false, { description: 'Write every snapshot the run sees, remove obsolete ones (refused under CI without --ci-update)' });
  ciUpdate = Option.Boolean('--ci-update', false, { description: 'Let -u write snapshots under CI (a job meant to update them)' });

  async execute(): Promise<number> {
    const [{ parseReporters }, session] = await Promise.all([import('../report/reporters.js'), import('../run/test-session.js')]);
    const reporters = parseReporters(this.reporter, this.json);
    if (!reporters.ok) throw new RoleflowError(reporters.error, 'usage');
    const flags = { grep: this.grep, shard: this.shard, transport: this.transport, repeat: this.repeat };
    const parsed = session.parseSelectionFlags(flags);
    const config = await this.loadConfig();
    const several = await this.severalTenants(config);
    if (several !== undefined) return this.testTenants(config, several, reporters.value);
    const files = await session.loadFlowTests(this.context.cwd, config, this.targets);
    const baseline = await session.loadBaseline(this.context.cwd, this.baseline);
    // Opened (nothing sent yet) to know its name: not_leaks looks for the Roles rendered for it.
    const tenant = await this.openTenant(config);
    const assertions = await session.prepareAssertions(this.context.cwd, config, files, { update: this.updateSnapshots, ciUpdate: this.ciUpdate, env: this.context.env, tenant: tenant.target.name });
    const { runs, secrets } = session.runsFor(tenant, files, flags, parsed, this.context.env);
    this.io.addSecrets(secrets);
    const selection = session.runSelection(this.context.cwd, config, this.targets, flags);
    return this.run(tenant, runs, reporters.value, config.flows, { shard: parsed.shard, selection }, baseline, assertions);
  }

  /**
   * The flow tests against each tenant in turn, each as a run of its own: its console section under
   * a heading, its report files with the tenant in their names (see `testTenantsInOrder`).
   */
  private async testTenants(config: Config, names: string[], reporters: ReporterSpec[]): Promise<number> {
    const [session, { reportersOfTenant }, { testTenantsInOrder }] = await Promise.all([
      import('../run/test-session.js'),
      import('../report/reporters.js'),
      import('../run/tenants/test-tenants.js'),
    ]);
    const flags = { grep: this.grep, shard: this.shard, transport: this.transport, repeat: this.repeat };
    const parsed = session.parseSelectionFlags(flags);
    const files = await session.loadFlowTests(this.context.cwd, config, this.targets);
    const baseline = await session.loadBaseline(this.context.cwd, this.baseline);
    const selection = session.runSelection(this.context.cwd, config, this.targets, flags);
    // Every tenant's config and token before any test starts anywhere.
    const opened = await this.openTenants(config, names);
    const testOne = async (name: string, i: number): Promise<number> => {
      const specs = reportersOfTenant(reporters, name);
      if (!specs.ok) throw new RoleflowError(specs.error, 'usage');
      const assertions = await session.prepareAssertions(this.context.cwd, config, files, { update: this.updateSnapshots, ciUpdate: this.ciUpdate, env: this.context.env, tenant: name });
      const tenant = opened[i]!;
      const { runs, secrets } = session.runsFor(tenant, files, flags, parsed, this.context.env);
      this.io.addSecrets(secrets);
      // A heading only over console output of its own: reports in files are announced on stderr.
      if (specs.value.some(consoleOnStdout)) this.io.out(`=== tenant ${name} ===`);
      return this.run(tenant, runs, specs.value, config.flows, { shard: parsed.shard, selection }, baseline, assertions, name);
    };
    return testTenantsInOrder(names, testOne, { out: (line) => this.io.out(line), err: (line) => this.io.err(line) });
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

  /** One tenant's run; `several`: its name, in a run over several tenants (its report files are always announced). */
  private async run(
    tenant: OpenTenant,
    runs: PlannedRun[],
    reporters: ReporterSpec[],
    flows: Config['flows'],
    { shard, selection }: { shard: Shard | undefined; selection: RunSelection },
    baseline: Baseline | undefined,
    assertions: AssertionFiles,
    several?: string,
  ): Promise<number> {
    const [{ runTestSession }, { redactResult }, { renderTestResult, progressLine }, { writeReports }, { Progress }] = await Promise.all([
      import('../run/test-session.js'),
      import('../report/run-report.js'),
      import('../report/console.js'),
      import('../run/write-reports.js'),
      import('../terminal/test-progress.js'),
    ]);
    const style = { color: this.colorFor('stdout'), quiet: this.quiet };
    const live = reporters.some(consoleOnStdout);
    const progress = live && this.canShowProgress() ? new Progress(this.context.stderr, (...a) => this.io.redact(progressLine(...a))) : undefined;
    this.io.showLiveLine(progress);
    if (runs.length === 0 && shard) this.io.err(`shard ${shard.index}/${shard.total} holds no tests`);
    const signal = this.interruption(() => {
      progress?.clear();
      this.io.err('Interrupted: ending the executions in flight; no new one starts; writing the reports (Ctrl-C again quits at once).');
    });
    const { report, interrupted, notes } = await runTestSession({
      tenant,
      runs,
      concurrency: this.concurrency ?? flows.concurrency,
      bail: this.bail,
      strictEnd: this.strictEnd ?? flows.strictEnd,
      signal,
      shard,
      selection,
      redactor: this.io.redactor,
      assertions,
      baseline,
      commit: await this.commit(),
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
    if (written.length > 0 && (live || several !== undefined)) this.io.err(`${live || several === undefined ? '' : `tenant ${several}: `}wrote ${written.map(safeText).join(', ')}`);
    if (interrupted) return ExitCode.Interrupted;
    return report.summary.failed > 0 ? ExitCode.TestsFailed : ExitCode.Ok;
  }
}

function consoleOnStdout(r: ReporterSpec): boolean {
  return r.name === 'console' && (r.file === undefined || r.file === '-');
}
