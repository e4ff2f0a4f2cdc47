import { safeText } from '../../core/safe-text.js';
import { Command, Option } from 'clipanion';
import { RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { environmentSecrets } from '../../core/redact.js';
import { RoleflowCommand } from '../base.js';

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
      \`--shard\`) merge without these checks. The merged report keeps the \`commit\` and the
      \`selection\` (PATH arguments, \`--grep\`, \`--transport\`) when every report has the same,
      and has none otherwise (\`roleflow promote\` then refuses it).

      Exit codes: 0 every test passed, 3 some test failed, 1 an unreadable or invalid report, or
      reports that are not the shards of one run.
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
  reporter = Option.Array('--reporter', [], { description: 'console, junit, github, json or html, with =FILE for a file (repeatable)' });
  allowPartial = Option.Boolean('--allow-partial', false, { description: 'Merge even when shards of the run are missing (the report lists them)' });

  async execute(): Promise<number> {
    const [{ mergeReports }, { redactReport }, { missingShardsText }, { parseReporters }, { writeReports }, { readJsonReports }] = await Promise.all([
      import('../../report/json.js'),
      import('../../report/run-report.js'),
      import('../../report/digest.js'),
      import('../../report/reporters.js'),
      import('../../run/write-reports.js'),
      import('../../run/read-reports.js'),
    ]);
    // The reports were redacted when written; credentials in the environment are hidden here too.
    this.io.addSecrets(environmentSecrets(this.context.env));
    const reporters = parseReporters(this.reporter, false);
    if (!reporters.ok) throw new RoleflowError(reporters.error);
    const inputs = await readJsonReports(this.context.cwd, this.reports);
    const merged = mergeReports(inputs, { allowPartial: this.allowPartial });
    if (!merged.ok) throw new RoleflowError(merged.error);
    const report = redactReport(merged.value, this.io.redactor);
    const specs = [{ name: 'json' as const, file: this.outFile ?? 'roleflow-report.json' }, ...reporters.value];
    const written = await writeReports(report, specs, this.reportSinks({ color: this.colorFor('stdout') }, false));
    const partial = report.missing_shards?.length ? `; ${missingShardsText(report.missing_shards)}` : '';
    this.io.err(`merged ${inputs.length} ${inputs.length === 1 ? 'report' : 'reports'} (${report.summary.tests} results)${partial}; wrote ${written.map(safeText).join(', ')}`);
    return report.summary.failed > 0 ? ExitCode.TestsFailed : ExitCode.Ok;
  }
}
