import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import type { Baseline } from '../core/compare/index.js';
import type { Shard } from '../core/runs/index.js';
import { MAX_REPEAT } from '../core/flows/types.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { PlannedRun } from '../core/runs/select.js';
import type { ReporterSpec } from '../report/reporters.js';
import { TenantCommand } from './base.js';

export class TestCommand extends TenantCommand {
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
      JSON reports of the shards.

      Every execution records how it ended (\`ended_by\` in the JSON report): its \`until\` reached,
      \`quiet\` (nothing more came for \`until.quiet\`: the console line says so), \`failed_step\`,
      \`timeout\`, \`error\` or \`interrupted\`. \`--strict-end\` (or \`flows.strict_end: true\`) makes a
      quiet end an error: only an \`until\` rule says a flow is over.

      \`--baseline FILE\` (a JSON report of an earlier run) judges relative latency budgets such as
      \`p95: "< baseline + 20%"\` against the same statistic of the same test × transport in it;
      without a baseline, or where it lacks the test or its samples, they are skipped with the reason.

      Ctrl-C (SIGINT) or SIGTERM starts nothing new, ends the executions in flight as interrupted,
      writes every report (what did not finish is not run), prints the summary and exits 130.

      Exit codes: 0 every test passed (or was skipped), 3 some test failed, 1 invalid files, bad
      usage, or a tenant that cannot be reached or refuses the token, 130 interrupted.
    `,
    examples: [
      ['Run every test in flows/', 'roleflow test'],
      ['Only the WebSocket transport, tests whose name mentions refund', 'roleflow test --transport ws --grep refund'],
      ['An HTML report to open in a browser', 'roleflow test --repeat 5 --reporter console --reporter html'],
      ['Latency percentiles from 10 repeats', 'roleflow test flows/summarize.yaml --repeat 10'],
      ['Without the line of each assertion a transport cannot check', 'roleflow test --quiet'],
      ['Latency budgets relative to the main branch\'s report ("< baseline + 20%")', 'roleflow test --repeat 10 --baseline main-report.json'],
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

  async execute(): Promise<number> {
    const [{ parseShard }, { parseReporters }] = await Promise.all([import('../core/runs/index.js'), import('../report/reporters.js')]);
    const reporters = parseReporters(this.reporter, this.json);
    if (!reporters.ok) throw new RoleflowError(reporters.error);
    const shard = this.shard === undefined ? undefined : parseShard(this.shard);
    if (shard && !shard.ok) throw new RoleflowError(shard.error);
    const grep = this.grep === undefined ? undefined : compileGrep(this.grep);

    const config = await this.loadConfig();
    const { defaultFlowsDir, findFlowFiles, loadFlowTestFiles } = await import('../files/flow-files.js');
    const cwd = this.context.cwd;
    const files = await findFlowFiles(cwd, this.targets.length > 0 ? this.targets : [await defaultFlowsDir(cwd, config)]);
    const loaded = await loadFlowTestFiles(files);
    if (!loaded.ok) throw new InvalidFilesError(loaded.issues);

    const { readJsonReports } = await import('../run/read-reports.js');
    const baseline = this.baseline === undefined ? undefined : (await readJsonReports(cwd, [this.baseline]))[0];

    const tenant = await this.openTenant(config);
    try {
      const { selectRuns } = await import('../core/runs/select.js');
      const hasWs = tenant.target.wsUrl !== undefined;
      if (this.transport === 'ws' && !hasWs) throw new RoleflowError(`--transport ws: tenant ${tenant.target.name} has no ws_url`);
      const selection = selectRuns(loaded.value, {
        hasWs,
        env: this.context.env,
        ...(grep && { grep }),
        ...(shard?.ok && { shard: shard.value }),
        ...(this.transport && { transport: this.transport }),
        ...(this.repeat !== undefined && { repeat: this.repeat }),
      });
      if (selection.matched === 0) throw new RoleflowError(grep ? `no test matches --grep ${this.grep}` : 'no tests in the flow test files');
      this.addSecrets(selection.secrets);
      return await this.run(tenant, selection.runs, reporters.value, config.flows, shard?.ok ? shard.value : undefined, baseline);
    } finally {
      await tenant.close();
    }
  }

  private async run(
    tenant: OpenTenant,
    runs: PlannedRun[],
    reporters: ReporterSpec[],
    flows: { concurrency: number; strictEnd: boolean },
    shard: Shard | undefined,
    baseline: Baseline | undefined,
  ): Promise<number> {
    const [{ runTests }, { buildRunReport, redactResult }, { renderTestResult, progressLine }, { writeReports, shownUrl }, { Progress }, { packageVersion }] =
      await Promise.all([
        import('../run/flow-tests.js'),
        import('../report/build.js'),
        import('../report/console.js'),
        import('../run/write-reports.js'),
        import('../terminal/test-progress.js'),
        import('../files/package-root.js'),
      ]);
    const redactor = this.redactor;
    const style = { color: this.colorFor('stdout'), quiet: this.quiet };
    const live = reporters.some((r) => r.name === 'console' && (r.file === undefined || r.file === '-'));
    const progress = live && this.canShowProgress() ? new Progress(this.context.stderr, (...a) => this.redact(progressLine(...a))) : undefined;
    this.showLiveLine(progress);
    if (runs.length === 0 && shard) this.err(`shard ${shard.index}/${shard.total} holds no tests`);
    const interruption = this.interruption(() => {
      progress?.clear();
      this.err('Interrupted: ending the executions in flight; no new one starts; writing the reports (Ctrl-C again quits at once).');
    });

    const startedAt = new Date();
    const started = performance.now();
    const outcome = await runTests({
      client: tenant.client,
      runs,
      concurrency: this.concurrency ?? flows.concurrency,
      bail: this.bail,
      strictEnd: this.strictEnd ?? flows.strictEnd,
      signal: interruption,
      ...(baseline && { baseline }),
      events: {
        started: (label, done, total) => progress?.start(label, done, total),
        finished: (label, done, total) => progress?.finish(label, done, total),
        tested: (result) => {
          if (!live) return;
          progress?.clear();
          this.out(renderTestResult(redactResult(result, redactor), style));
          progress?.draw();
        },
      },
    });
    progress?.clear();
    if (outcome.tenantProblem !== undefined) {
      throw new RoleflowError(`tenant ${tenant.target.name} cannot run the tests: ${outcome.tenantProblem}; the run was stopped`);
    }
    const report = buildRunReport(
      {
        version: packageVersion(),
        tenant: {
          name: tenant.target.name,
          base_url: shownUrl(tenant.location),
          ...(tenant.target.wsUrl !== undefined && { ws_url: shownUrl(tenant.target.wsUrl) }),
        },
        ...(shard && { shard }),
        ...(this.context.env['GITHUB_SHA'] && { commit: this.context.env['GITHUB_SHA'] }),
        startedAt,
        finishedAt: new Date(),
        durationMs: performance.now() - started,
        bailed: outcome.bailed,
        interrupted: outcome.interrupted,
        results: outcome.results,
      },
      redactor,
    );
    const written = await writeReports(report, reporters, this.reportSinks(style, live));
    if (written.length > 0 && live) this.err(`wrote ${written.join(', ')}`);
    if (outcome.interrupted) return ExitCode.Interrupted;
    return report.summary.failed > 0 ? ExitCode.TestsFailed : ExitCode.Ok;
  }
}

function compileGrep(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new RoleflowError(`invalid --grep ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}
