import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { failOnRegressionOption, thresholdOption } from '../options.js';

export class ReportCompareCommand extends RoleflowCommand {
  static override paths = [['report', 'compare']];
  static override usage = Command.Usage({
    category: 'Flow tests',
    description: 'Compare two JSON test reports: significant latency changes, new failures',
    details: `
      Reads two JSON reports (\`roleflow test --reporter json=FILE\`, single or merged with
      \`report merge\`): BASE, for instance the default branch's last run, and HEAD, the run to
      judge. For every flow × transport in both it shows the client wall-clock p50/p95 before →
      after with the change in %, the same for each step's server-reported latency, and the pass
      rate; then the tests newly failing and newly passing, and the tests added and removed.

      A latency is a **regression** when its p50 or p95 grew more than \`--threshold\` (default 20%)
      and a two-sided Mann–Whitney U test over the raw samples finds the change significant
      (p < 0.05; exact for up to 25 samples a side without ties, else the normal approximation with
      tie correction). With fewer than 5 samples on either side it is "not enough samples", never a
      regression: run the tests with \`--repeat\` to have them.

      HEAD must be judgeable: a test it did not run (an interrupted run) or skipped after passing in
      BASE is listed as not judged, and counts as a regression unless \`--allow-skipped\`. A report
      holding a number too large to be finite (\`1e999\`) is an invalid report.

      Exit codes: 0 compared (with \`--fail-on-regression\`: no regression, no newly failing test
      and every test judged), 3 with \`--fail-on-regression\`: a regression, a newly failing test or
      a test not judged, 1 an unreadable or invalid report, or bad usage.
    `,
    examples: [
      ['Compare a pull request run with the main branch run', 'roleflow report compare main-report.json roleflow-report.json'],
      ['Fail the job on a significant slowdown over 10% or a new failure', 'roleflow report compare base.json head.json --threshold 10% --fail-on-regression'],
      ['Markdown for a pull-request comment', 'roleflow report compare base.json head.json --format markdown >> "$GITHUB_STEP_SUMMARY"'],
      ['Accept tests the head run skipped or did not run', 'roleflow report compare base.json head.json --fail-on-regression --allow-skipped'],
      ['The comparison as JSON for scripts', 'roleflow report compare base.json head.json --format json'],
    ],
  });

  base = Option.String({ name: 'BASE' });
  head = Option.String({ name: 'HEAD' });
  format = Option.String('--format', 'text', { description: 'text (default), markdown or json' });
  threshold = thresholdOption('The p50/p95 increase that may be a regression (default 20%)');
  failOnRegression = failOnRegressionOption('Exit 3 on a significant regression, a newly failing test, or a test HEAD did not run or newly skipped');
  allowSkipped = Option.Boolean('--allow-skipped', false, { description: 'With --fail-on-regression: a test HEAD did not run, or skipped after passing in BASE, does not fail it' });

  async execute(): Promise<number> {
    const { reportCompare } = await import('../../run/report.js');
    const { base, head, format, threshold, failOnRegression, allowSkipped } = this;
    return reportCompare({ ...this.common, base, head, format, threshold, failOnRegression, allowSkipped }, this.ports);
  }
}
