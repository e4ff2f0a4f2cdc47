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
      \`--shard\`) merge without these checks. The merged report keeps the \`commit\`, the
      \`selection\` (PATH arguments, \`--grep\`, \`--transport\`) and the \`roles_digest\` (the
      Roles the tenant held) when every report has the same, and has none otherwise, with a warning
      (\`roleflow promote\` then refuses it); its \`work_tree\` is dirty when any report's was.

      \`--prefer-last\`: a run, then reruns of some of its tests (\`test --last-failed\`): a test in
      several reports keeps the last one's result, and its \`history\` lists each report's. The
      reports holding shards are the run (else the first report is); the others are its reruns.
      Shards dealt by different plans (their \`shard_plan\` digests differ) are refused.

      The reports are read one result at a time and the merged JSON is written as the results go by,
      so memory does not grow with the number of reports; the pass rate (\`--min-pass-rate\`, else the
      reports' own) and the latency per flow (\`latency\`) are computed from every execution, not from
      the shards' summaries. The console reporter prints as the merge goes; junit, github and html
      read the merged report back.

      A merged run in which no test ran (every result skipped, or none) exits 1 with one line saying
      why, as \`test\` does, unless \`--pass-with-no-tests\`: one shard may hold no test, the whole run
      should test something.

      Exit codes: 0 every test that ran passed (or the pass rate reached --min-pass-rate), 3 some test failed, 1 no test ran, an unreadable or
      invalid report, or reports that are not the shards of one run.
    `,
    examples: [
      ['Merge the shards and print the summary', 'roleflow report merge reports/*.json'],
      ['Merge, then JUnit and the GitHub job summary', 'roleflow report merge shard-*/roleflow-report.json --out merged.json --reporter junit --reporter github'],
      ['Merge, then one HTML report of the whole run', 'roleflow report merge shard-*/roleflow-report.json --reporter html=report.html'],
      ['Merge the shards that finished, even if some did not', 'roleflow report merge reports/*.json --allow-partial'],
      ['A run and its rerun of what failed: each test once, both results in its history', 'roleflow report merge first.json rerun.json --prefer-last --out merged.json'],
    ],
  });

  reports = Option.Rest({ name: 'FILE', required: 1 });
  outFile = Option.String('--out', { description: 'The merged JSON report (default: roleflow-report.json)' });
  reporter = Option.Array('--reporter', [], { description: 'console, junit, github, json or html, with =FILE for a file (repeatable)' });
  allowPartial = Option.Boolean('--allow-partial', false, { description: 'Merge even when shards of the run are missing (the report lists them)' });
  preferLast = Option.Boolean('--prefer-last', false, { description: 'A run, then reruns: a test in several reports keeps the last one\'s result, all of them in its history' });
  minPassRate = Option.String('--min-pass-rate', { description: 'Judge the merged suite as a whole (95%); default: the reports\' own' });
  passWithNoTests = Option.Boolean('--pass-with-no-tests', false, { description: 'A merged run in which no test ran exits 0, not 1' });

  async execute(): Promise<number> {
    const [{ mergeReportFiles }, { missingShardsText }, { parseReporters }, { writeReports }, { readJsonReports }, { noTestRanError }, { renderTestResult, renderSummary }, { parsePassRate }] = await Promise.all([
      import('../../run/report-merge.js'),
      import('../../report/digest.js'),
      import('../../report/reporters.js'),
      import('../../run/write-reports.js'),
      import('../../run/read-reports.js'),
      import('../../report/no-tests.js'),
      import('../../report/console.js'),
      import('../../core/loop/index.js'),
    ]);
    // The reports were redacted when written; credentials in the environment are hidden here too.
    this.io.addSecrets(environmentSecrets(this.context.env));
    const reporters = parseReporters(this.reporter, false);
    if (!reporters.ok) throw new RoleflowError(reporters.error);
    const rate = this.minPassRate === undefined ? undefined : parsePassRate(this.minPassRate, '--min-pass-rate');
    if (rate && !rate.ok) throw new RoleflowError(rate.error, 'usage');
    const out = this.outFile ?? 'roleflow-report.json';
    // `--out -` alone: the merged JSON is all of stdout.
    if (out === '-' && this.reporter.length === 0) reporters.value.splice(0);
    if (out === '-' && reporters.value.some((r) => r.name === 'github' || r.file === undefined || r.file === '-')) {
      throw new RoleflowError('--out - writes the merged report on stdout: give the other reporters a file each (--reporter NAME=FILE)', 'usage');
    }
    const style = { color: this.colorFor('stdout') };
    // The console prints each result as the merge writes it; the other reporters read the merged report.
    const consoleLive = reporters.value.some((r) => r.name === 'console' && (r.file === undefined || r.file === '-'));
    const others = reporters.value.filter((r) => !(r.name === 'console' && (r.file === undefined || r.file === '-')));
    const merged = await mergeReportFiles(
      { cwd: this.context.cwd, files: this.reports, out, allowPartial: this.allowPartial, preferLast: this.preferLast, minPassRate: rate?.ok ? rate.value : undefined, redactor: this.io.redactor },
      {
        ...(consoleLive && { result: (r) => this.io.out(renderTestResult(r, style)) }),
        stdout: (piece) => this.io.outDataBytes(piece, (p) => [Buffer.from(p, 'utf8')]),
      },
    );
    for (const warning of merged.warnings) this.io.err(warning);
    const { report } = merged;
    if (consoleLive) this.io.out(`\n${renderSummary(report, style, merged.totals.skippedChecks)}`);
    const written = out === '-' ? [] : [out];
    if (others.length > 0) {
      const full = out === '-' ? undefined : (await readJsonReports(this.context.cwd, [out]))[0]!.report;
      if (full === undefined) throw new RoleflowError('--out - writes the merged report on stdout: give it a file to render it with other reporters too');
      written.push(...(await writeReports(full, others, this.reportSinks(style, false))));
    }
    const partial = report.missing_shards?.length ? `; ${missingShardsText(report.missing_shards)}` : '';
    const inputs = this.reports.length;
    this.io.err(`merged ${inputs} ${inputs === 1 ? 'report' : 'reports'} (${report.summary.tests} results)${partial}${written.length > 0 ? `; wrote ${written.join(', ')}` : ''}`);
    if (report.summary.failed > 0) return report.gate?.passed ? ExitCode.Ok : ExitCode.TestsFailed;
    const none = merged.totals.noTestRan;
    if (none === undefined) return ExitCode.Ok;
    this.io.err(this.passWithNoTests ? `${none} (--pass-with-no-tests)` : `error: ${noTestRanError(none)}`);
    return this.passWithNoTests ? ExitCode.Ok : ExitCode.Error;
  }
}
