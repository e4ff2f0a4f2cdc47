import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RoleflowCommand } from '../base.js';
import { allowEmptyPruneOption, allTenantsOption, baseUrlOption, jsonOption, pruneOption, rolesOption, targetOption, tenantsOption, wsUrlOption } from '../options.js';

export class PlanCommand extends RoleflowCommand {
  static override paths = [['plan']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Show what apply would change on the tenant (read-only)',
    details: `
      Reads every role file (\`roles/**/*.md\`; a problem in any of them stops here with
      \`file:line:col\` lines and exit 1), lists the tenant's Roles once, and prints the plan:
      \`+\` create, \`~\` update (with a diff of the content), \`-\` delete, then a
      \`Plan: N to create, N to update, N to delete.\` line. Nothing is changed.

      The files are rendered for the tenant first: \`\${vars.NAME}\` in a description or content is
      the tenant's value (\`vars:\` and \`tenants.<name>.vars:\` in the config; an undeclared one
      stops here, located), and a file whose front-matter \`tenants:\` does not match the tenant is
      left out (its Role there is unmanaged, or deleted with prune; a note says why).

      Remote Roles without a role file are listed as unmanaged, or deleted with \`--prune\` (or
      \`roles.prune: true\`; \`--no-prune\` overrides the config). \`roles.protect\` globs refuse any
      update or delete of matching Roles and more deletes than \`roles.max_deletes\` refuse the
      plan: both exit 4. So does prune when there are no role files at all (it would delete every
      Role: an empty or mistyped roles folder?) unless \`--allow-empty-prune\` (or
      \`roles.allow_empty_prune: true\`). \`roles.ignore\` globs are left out entirely.

      \`--out FILE\` saves the plan as JSON for \`roleflow apply FILE\`, which carries out exactly it
      and refuses (exit 4) if the tenant changed in between, if the file was altered (the plan
      ends with a \`digest\` of its contents), or if the config's guards refuse it by then. \`--format markdown\` writes a pull-request
      comment; \`--json\` is \`--format json\`. \`--detailed-exitcode\` exits 2 when there are changes.

      Several tenants (\`--tenant\` more than once, or \`--all-tenants\`: every configured tenant but
      the embedded \`local\`): each is listed (a few at once) and planned as if alone. Text has a
      section per tenant and a line each at the end; markdown is one comment, a summary table then
      a section per tenant, within GitHub's limit; JSON (and \`--out\`) is
      \`{format_version, tenants: [<plan>…], digest}\`, which \`apply\` carries out tenant by tenant in
      that order. \`--detailed-exitcode\` exits 2 when any tenant has changes; guards refusing any
      tenant's plan exit 4. A tenant that cannot be listed (unreachable, refusing the token) does
      not hide the others: its section (markdown row, JSON \`{tenant, error}\` entry) says why, the
      error names it, and the run exits 1 without saving \`--out\` (an older file of that name is
      left as it was, and said not to be this plan).
    `,
    examples: [
      ['Plan against the default tenant', 'roleflow plan'],
      ['Plan deletes of Roles without a file, and save the plan for review', 'roleflow plan --prune --out plan.json'],
      ['In CI: did anything drift? (0 = no, 2 = yes)', 'roleflow plan --tenant staging --detailed-exitcode'],
      ['The same files, rendered with production\'s variables', 'roleflow plan --tenant production'],
      ['A pull-request comment', 'roleflow plan --format markdown > plan.md'],
      ['Only some Roles (a partial plan)', 'roleflow plan --target support-agent --target "billing-*"'],
      ['Only the Roles of these files', 'roleflow plan roles/support-agent.md roles/billing.md'],
      ['Every tenant in one pull-request comment', 'roleflow plan --all-tenants --format markdown > plan.md'],
      ['Nightly drift check of every tenant (0 = none, 2 = some tenant drifted)', 'roleflow plan --all-tenants --detailed-exitcode'],
      ['Save the plan of two tenants, applied in this order', 'roleflow plan --tenant staging --tenant production --out plan.json'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  allTenants = allTenantsOption();
  target = targetOption();
  roles = rolesOption();
  prune = pruneOption();
  allowEmptyPrune = allowEmptyPruneOption();
  roleFiles = Option.Rest({ name: 'ROLEFILE' });
  outFile = Option.String('--out', { description: 'Save the plan as JSON for `roleflow apply FILE`' });
  json = jsonOption('Print the plan as JSON (same as --format json)');
  format = Option.String('--format', { description: 'text (default), json or markdown', validator: t.isEnum(['text', 'json', 'markdown'] as const) });
  detailedExitcode = Option.Boolean('--detailed-exitcode', false, { description: 'Exit 2 when the plan has changes, 0 when it has none' });

  async execute(): Promise<number> {
    const { plan } = await import('../../run/roles/plan.js');
    const { tenants, baseUrl, wsUrl, allTenants, roles, prune, allowEmptyPrune, roleFiles, json, format, detailedExitcode } = this;
    const options = { tenants, baseUrl, wsUrl, allTenants, targets: this.target, roles, prune, allowEmptyPrune, roleFiles, out: this.outFile, json, format, detailedExitcode };
    return plan({ ...this.common, ...options }, this.ports);
  }
}
