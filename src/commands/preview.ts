import { Command, Option } from 'clipanion';
import { RoleflowCommand } from './base.js';
import { baseUrlOption, failOnRegressionOption, jsonOption, reporterOption, tenantsOption, thresholdOption, wsUrlOption } from './options.js';

export class PreviewCommand extends RoleflowCommand {
  static override paths = [['preview']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'The behaviour diff: what a Role change does to the flow tests, before it merges',
    details: `
      On a tenant set aside for it (\`preview: true\` under \`tenants.NAME\` in the config; the
      embedded tenant: \`local.preview: true\`), runs the flow tests twice and compares them:

      1. the base: the role files of git REF (\`--base\`, e.g. the pull request's base branch), with
         that commit's variables and \`tenants:\` membership, applied with prune; then the flow tests
         of the work tree;
      2. the head: the work tree's role files applied with prune; then the same flow tests.

      Per test × transport it shows each side's verdict (passed, failed, skipped), whether the
      outputs changed (a diff of them; WebSocket), whether the step sequence changed (HTTPS), and
      latency changes that \`report compare\`'s significance test finds (see \`--threshold\`).
      Afterwards the tenant holds the work tree's Roles.

      \`--base-report FILE\` takes the base from an earlier run's JSON report on the same tenant
      instead (its commit and age are printed; older than a week, a warning): only the head side runs.

      Safety: any other tenant, or no \`--tenant\`, is refused (exit 4) with nothing sent; so is a run
      that would start more executions than \`preview.max_executions\` (default 500), counted and
      printed first. The tenant is listed before and after each side's tests: a Role changed by
      someone else meanwhile marks the run contaminated (exit 1). Snapshot files are read, never written.

      Output: text; \`--format markdown\` for a pull-request comment (verdict changes first, then
      outputs, then latency, cut to fit GitHub's limit, saying what was cut); \`--json\` (or
      \`--format json\`): \`schemas/preview.schema.json\`. \`--reporter html=FILE\` writes a page with
      both sides side by side.

      Exit codes: 0 compared; 3 with \`--fail-on-regression\`, a test that passed on the base fails on
      the head; 4 refused (not a preview tenant, too many executions, a guard of the plan); 1 bad
      usage (a \`--base\` git does not know), invalid files, a tenant error, or a contaminated run;
      130 interrupted (stopped before the work tree's Roles were all applied, it says what the
      tenant holds).
    `,
    examples: [
      ['Compare the main branch\'s Roles with the work tree\'s on the preview tenant', 'roleflow preview --tenant preview --base origin/main'],
      ['Fail when a test that passed on main fails with this change', 'roleflow preview --tenant preview --base origin/main --fail-on-regression'],
      ['Only the summarize tests, as markdown for a pull-request comment', 'roleflow preview --tenant preview --base origin/main flows/summarize.yaml --format markdown'],
      ['Against the embedded tenant (local.preview: true in the config)', 'roleflow preview --tenant local --base HEAD~1'],
      ['The base from the main branch\'s last report on the same tenant', 'roleflow preview --tenant preview --base-report main-preview-report.json --json'],
      ['Both sides side by side in a browser', 'roleflow preview --tenant preview --base origin/main --reporter html=preview.html'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  targets = Option.Rest({ name: 'path' });
  base = Option.String('--base', { description: 'A git ref (branch, tag, sha) whose role files are the base' });
  baseReport = Option.String('--base-report', { description: 'An earlier JSON test report of the same tenant, as the base (instead of --base)' });
  format = Option.String('--format', { description: 'text (default), markdown or json' });
  json = jsonOption('The comparison as JSON on stdout (same as --format json)');
  reporter = reporterOption('html=FILE: both sides side by side in one page');
  threshold = thresholdOption('The p50/p95 increase that may be a latency regression (default 20%)');
  failOnRegression = failOnRegressionOption('Exit 3 when a test that passed on the base fails on the head');

  async execute(): Promise<number> {
    const { preview } = await import('../run/preview/preview.js');
    const { tenants, baseUrl, wsUrl, base, baseReport, format, json, threshold, failOnRegression } = this;
    const options = { tenants, baseUrl, wsUrl, base, baseReport, paths: this.targets, format, json, reporters: this.reporter, threshold, failOnRegression };
    return preview({ ...this.common, ...options }, this.ports);
  }
}
