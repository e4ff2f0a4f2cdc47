import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { passWithNoTestsOption, reporterOption } from '../options.js';

export class ReportMergeCommand extends RoleflowCommand {
  static override paths = [['report', 'merge']];
  static override usage = Command.Usage({
    category: 'Flow tests',
    description: 'Combine the JSON reports of sharded test runs into one',
    details: `
      Reads the JSON reports of \`roleflow test --shard I/N --reporter json=FILE\` runs (for instance
      the artifacts of a GitHub Actions matrix), checks them against \`schemas/report.schema.json\`,
      and writes one report with every result (\`--out\`, default roleflow-report.json). The merged
      report can be rendered again with \`--reporter\` (console, junit, github, html; default console).

      The reports must be the shards of one run: the same N, each shard once, and every shard 1..N
      (a lost artifact would otherwise pass unnoticed). A missing shard is an error naming it
      (\`shard 3/3 is missing\`); \`--allow-partial\` merges what is there, and the merged report
      lists the missing shards (\`missing_shards\`). Shards of different N, a shard or a test in two
      reports, and a whole-run report among shards are always errors. Reports of whole runs (no
      \`--shard\`) merge without these checks. The merged report keeps the \`commit\`, the
      \`selection\` (PATH arguments, \`--grep\`, \`--transport\`) and the \`roles_digest\` (the
      Roles the tenant held) when every report has the same, and has none otherwise, with a warning
      (\`roleflow promote\` then refuses it); its \`work_tree\` is dirty when any report's was.

      \`--prefer-last\`: a run, then reruns of some of its tests (\`test --last-failed\`): a test in
      several reports keeps the last one's result, and its \`history\` lists each report's (the
      reports holding shards are the run, else the first one). Shards of different plans (their
      \`shard_plan\` digests differ) are refused. Reports are read one result at a time, so memory
      does not grow with their number; the pass rate (\`--min-pass-rate\`, else the reports' own) and
      the latency per flow are computed from every execution, not from the shards' summaries.

      A merged run in which no test ran (every result skipped, or none) exits 1 with one line saying
      why, as \`test\` does, unless \`--pass-with-no-tests\`: one shard may hold no test, the whole run
      should test something.

      Exit codes: 0 every test that ran passed (or the pass rate was met), 3 some test failed, 1 no test ran, an unreadable or
      invalid report, or reports that are not the shards of one run.
    `,
    examples: [
      ['A run and its rerun of what failed: each test once, both results in its history', 'roleflow report merge first.json rerun.json --prefer-last --out merged.json'],
      ['Merge the shards and print the summary', 'roleflow report merge reports/*.json'],
      ['Merge, then JUnit and the GitHub job summary', 'roleflow report merge shard-*/roleflow-report.json --out merged.json --reporter junit --reporter github'],
      ['Merge, then one HTML report of the whole run', 'roleflow report merge shard-*/roleflow-report.json --reporter html=report.html'],
      ['Merge the shards that finished, even if some did not', 'roleflow report merge reports/*.json --allow-partial'],
    ],
  });

  reports = Option.Rest({ name: 'FILE', required: 1 });
  outFile = Option.String('--out', { description: 'The merged JSON report (default: roleflow-report.json)' });
  reporter = reporterOption('console, junit, github, json or html, with =FILE for a file (repeatable)');
  allowPartial = Option.Boolean('--allow-partial', false, { description: 'Merge even when shards of the run are missing (the report lists them)' });
  preferLast = Option.Boolean('--prefer-last', false, { description: "A run, then reruns: a test in several reports keeps the last one's result, all of them in its history" });
  minPassRate = Option.String('--min-pass-rate', { description: "Judge the merged suite as a whole (95%); default: the reports' own" });
  passWithNoTests = passWithNoTestsOption('A merged run in which no test ran exits 0, not 1');

  async execute(): Promise<number> {
    const { reportMerge } = await import('../../run/report/report.js');
    const { reports, allowPartial, preferLast, minPassRate, passWithNoTests } = this;
    return reportMerge({ ...this.common, reports, out: this.outFile, reporters: this.reporter, allowPartial, preferLast, minPassRate, passWithNoTests }, this.ports);
  }
}
