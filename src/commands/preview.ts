import { Command, Option } from 'clipanion';
import { RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { TenantCommand } from './tenant-command.js';

const FORMATS = ['text', 'markdown', 'json'] as const;

export class PreviewCommand extends TenantCommand {
  static override paths = [['preview']];
  static override usage = Command.Usage({
    category: 'Roles',
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
      130 interrupted.
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

  targets = Option.Rest({ name: 'path' });
  base = Option.String('--base', { description: 'A git ref (branch, tag, sha) whose role files are the base' });
  baseReport = Option.String('--base-report', { description: 'An earlier JSON test report of the same tenant, as the base (instead of --base)' });
  format = Option.String('--format', { description: 'text (default), markdown or json' });
  json = Option.Boolean('--json', false, { description: 'The comparison as JSON on stdout (same as --format json)' });
  reporter = Option.Array('--reporter', [], { description: 'html=FILE: both sides side by side in one page' });
  threshold = Option.String('--threshold', '20%', { description: 'The p50/p95 increase that may be a latency regression (default 20%)' });
  failOnRegression = Option.Boolean('--fail-on-regression', false, { description: 'Exit 3 when a test that passed on the base fails on the head' });

  async execute(): Promise<number> {
    const [{ preview }, { parseThreshold }, { renderPreviewMarkdown, renderPreviewText }, { writePreviewHtml, previewHtmlFile }, { jsonText }] = await Promise.all([
      import('../run/preview.js'),
      import('../core/compare/index.js'),
      import('../core/preview/index.js'),
      import('../run/preview-page.js'),
      import('../core/safe-text.js'),
    ]);
    const format = this.json ? 'json' : (this.format ?? 'text');
    if (!FORMATS.includes(format as (typeof FORMATS)[number])) throw new RoleflowError(`unknown --format ${format}: use ${FORMATS.join(', ')}`, 'usage');
    if (this.json && this.format !== undefined && this.format !== 'json') throw new RoleflowError(`--json and --format ${this.format} do not go together`, 'usage');
    if ((this.base === undefined) === (this.baseReport === undefined)) throw new RoleflowError('preview needs a base: --base REF (a git ref) or --base-report FILE, one of them', 'usage');
    const html = previewHtmlFile(this.reporter);
    if (!html.ok) throw new RoleflowError(html.error, 'usage');
    const threshold = parseThreshold(this.threshold);
    if (!threshold.ok) throw new RoleflowError(threshold.error, 'usage');
    if (this.baseUrl !== undefined || this.wsUrl !== undefined) throw new RoleflowError('--base-url and --ws-url do not go with preview: it runs only on a configured tenant marked preview: true', 'usage');
    const config = await this.loadConfig();
    const signal = this.interruption(() => this.io.err('Interrupted: ending the executions in flight; no new one starts.'));
    const outcome = await preview(
      {
        cwd: this.context.cwd,
        config,
        env: this.context.env,
        tenant: this.tenant,
        base: this.base !== undefined ? { ref: this.base } : { report: this.baseReport! },
        paths: this.targets,
        threshold: threshold.value,
        now: new Date(),
      },
      {
        open: (name) => this.openTenant(config, name),
        signal,
        redactor: this.io.redactor,
        addSecrets: (values) => this.io.addSecrets(values),
        note: (line) => this.io.err(line),
      },
    );
    const { document } = outcome;
    if (format === 'json') this.io.outData(document, (d) => `${jsonText(d, 2)}\n`);
    else this.io.out((format === 'markdown' ? renderPreviewMarkdown(document) : renderPreviewText(document)).replace(/\n$/, ''));
    if (html.value !== undefined) this.io.err(`wrote ${await writePreviewHtml(this.context.cwd, html.value, outcome, this.io.redactor)}`);
    if (outcome.interrupted) return ExitCode.Interrupted;
    if (document.contaminated) {
      this.io.err(`preview: contaminated — the tenant's Roles changed while the tests ran (${document.contamination.join('; ')}); run it again`);
      return ExitCode.Error;
    }
    return this.failOnRegression && document.summary.regressions > 0 ? ExitCode.TestsFailed : ExitCode.Ok;
  }
}
