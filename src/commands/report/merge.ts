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

      A merged run in which no test ran (every result skipped, or none) exits 1 with one line saying
      why, as \`test\` does, unless \`--pass-with-no-tests\`: one shard may hold no test, the whole run
      should test something.

      Exit codes: 0 every test that ran passed, 3 some test failed, 1 no test ran, an unreadable or
      invalid report, or reports that are not the shards of one run.
    `,
    examples: [
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
  passWithNoTests = passWithNoTestsOption('A merged run in which no test ran exits 0, not 1');

  async execute(): Promise<number> {
    const { reportMerge } = await import('../../run/report.js');
    const { reports, allowPartial, passWithNoTests } = this;
    return reportMerge({ ...this.common, reports, out: this.outFile, reporters: this.reporter, allowPartial, passWithNoTests }, this.ports);
  }
}
