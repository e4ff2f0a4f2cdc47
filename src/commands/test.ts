import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { MAX_REPEAT } from '../run/ports.js';
import { RoleflowCommand } from './base.js';
import { allTenantsOption, baseUrlOption, concurrencyOption, jsonOption, numberOption, passWithNoTestsOption, reporterOption, tenantsOption, wsUrlOption } from './options.js';

export class TestCommand extends RoleflowCommand {
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
      JSON reports of the shards. The JSON report records what the tests ran against, which
      \`roleflow promote\` checks: the \`commit\`, the run's \`selection\` (the flows folder, PATH
      arguments, \`--grep\`, \`--transport\`), a digest of the tenant's Roles listed before the
      first execution and after the last (\`roles_digest\`), and whether the git work tree was clean
      (\`work_tree\`).

      Every execution records how it ended (\`ended_by\` in the JSON report): its \`until\` reached,
      \`quiet\` (nothing more came for \`until.quiet\`: the console line says so), \`failed_step\`,
      \`timeout\`, \`error\` or \`interrupted\`. \`--strict-end\` (or \`flows.strict_end: true\`) makes a
      quiet end an error: only an \`until\` rule says a flow is over.

      \`snapshot\` assertions compare with \`__snapshots__/<file>.snap.yaml\`; a missing one is written (it fails
      when \`CI\` is set); \`-u\` (\`--update-snapshots\`) rewrites them all and removes obsolete ones, and
      is refused when \`CI\` is set unless \`--ci-update\`. A \`__snapshots__/\` that a symbolic link
      leads out of the repository is refused.

      \`judge: NAME\` assertions run the config's judge flow \`judges.NAME\` on the output (over
      WebSocket), \`votes\` times; the majority is the verdict, reported with the score, every reason
      and the judge executions' ids. \`--no-judge\` skips them (skipped, never passed). With
      \`--baseline FILE\`, a verdict on the same output, rubric and judge Role (by digest) is reused
      from that report. \`--judges\` runs \`flows/_judges/*.yaml\` instead (outputs labelled good or bad)
      and prints how often each judge agrees with its labels (\`--json\` too); exit 3 when one disagrees.

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

      Exit codes: 0 every test that ran passed (some may be skipped), 3 some test failed, 1 no test
      ran, invalid files, bad usage, or a tenant that cannot be reached or refuses the token, 130
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
      ['Without running the judge flows of judge assertions', 'roleflow test --no-judge'],
      ['How often each judge agrees with the labelled outputs of flows/_judges/', 'roleflow test --judges'],
      ['Against every configured tenant: report.staging.json, report.production.json, …', 'roleflow test --all-tenants --reporter console --reporter json=report.json'],
      ['In CI: shard 1 of 4, with JUnit and GitHub reporters', 'roleflow test --shard 1/4 --reporter console --reporter junit --reporter json=report-1.json --reporter github'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  allTenants = allTenantsOption();
  targets = Option.Rest({ name: 'path' });
  transport = Option.String('--transport', { description: 'Only this transport: https or ws', validator: t.isEnum(['https', 'ws'] as const) });
  reporter = reporterOption('console, json, junit, github or html, with =FILE for a file (repeatable)');
  concurrency = concurrencyOption('Executions at once (default: flows.concurrency, 4)', 256);
  repeat = numberOption('--repeat', `Repeats per test and transport, overriding the files' repeat (at most ${MAX_REPEAT})`, { min: 1, max: MAX_REPEAT, integer: true });
  shard = Option.String('--shard', { description: 'Run slice I of N (e.g. 2/4)' });
  grep = Option.String('--grep', { description: 'Only tests whose "file > name" or name matches this regular expression' });
  bail = Option.Boolean('--bail', false, { description: 'Start no new execution after the first failed test' });
  strictEnd = Option.Boolean('--strict-end', { description: 'An execution that ends by quiet, not by its until rule, is an error (default: flows.strict_end, false)' });
  quiet = Option.Boolean('--quiet', false, { description: 'No line per skipped assertion on the console (the totals still count them)' });
  baseline = Option.String('--baseline', { description: 'A JSON report that relative budgets ("< baseline + 20%") are judged against' });
  json = jsonOption('The JSON report on stdout (same as --reporter json=-)');
  updateSnapshots = Option.Boolean('-u,--update-snapshots', false, { description: 'Write every snapshot the run sees, remove obsolete ones (refused under CI without --ci-update)' });
  ciUpdate = Option.Boolean('--ci-update', false, { description: 'Let -u write snapshots under CI (a job meant to update them)' });
  passWithNoTests = passWithNoTestsOption('A run in which no test ran (all skipped, --grep matching nothing, an empty shard) exits 0, not 1');
  noJudge = Option.Boolean('--no-judge', false, { description: 'Skip judge assertions (reported skipped, never passed): no judge flow runs' });
  judges = Option.Boolean('--judges', false, { description: 'Run flows/_judges/*.yaml (outputs labelled good or bad) and report how often each judge agrees' });

  async execute(): Promise<number> {
    const { test } = await import('../run/flows/test.js');
    const { tenants, baseUrl, wsUrl, allTenants, transport, concurrency, repeat, shard, grep, bail, strictEnd, quiet, baseline, json, updateSnapshots, ciUpdate, passWithNoTests, noJudge, judges } = this;
    const options = { tenants, baseUrl, wsUrl, allTenants, paths: this.targets, transport, reporters: this.reporter, concurrency, repeat, shard, grep, bail, strictEnd, quiet, baseline, json, updateSnapshots, ciUpdate, passWithNoTests, noJudge, judges };
    return test({ ...this.common, ...options }, this.ports);
  }
}
