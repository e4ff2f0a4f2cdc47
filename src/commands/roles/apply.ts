import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import {
  allowEmptyPruneOption,
  allTenantsOption,
  applyConcurrencyOption,
  autoApproveOption,
  baseUrlOption,
  jsonOption,
  pruneOption,
  rolesOption,
  targetOption,
  tenantsOption,
  wsUrlOption,
} from '../options.js';

export class ApplyCommand extends RoleflowCommand {
  static override paths = [['apply']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Make the tenant match the role files',
    details: `
      Without PLANFILE: plans as \`roleflow plan\` does, prints the plan and asks for confirmation
      (only \`yes\` is accepted) unless \`--auto-approve\`. When stdin is not a terminal it refuses
      without \`--auto-approve\`: in CI, approve explicitly or apply a reviewed saved plan. With
      nothing to do it prints \`No changes.\` and exits 0, terminal or not. The guards of
      \`roleflow plan\` refuse it (exit 4, nothing sent), among them prune with no role files at all
      unless \`--allow-empty-prune\` (or \`roles.allow_empty_prune: true\`).

      With PLANFILE (from \`roleflow plan --out\`): carries out exactly that plan and asks nothing,
      the saved plan was the review. It is refused (exit 4, nothing sent) if it was altered since
      it was written (its \`digest\`), if today's config refuses it (\`protect\`, \`max_deletes\`,
      empty prune), or if the tenant is another one or any planned Role changed since. The plan
      names its tenant: without \`--tenant\` (and \`ROLEFLOW_TENANT\`) it goes there.

      Changes run at most \`--concurrency\` at once (default \`roles.concurrency\`, 4): deletes that
      free a name, then updates, creates, other deletes; failed requests are retried. A create is
      sent once: one whose outcome is unknown is looked for over a settle window, then reported
      \`? outcome unknown\`, never as created. Copies that a concurrent apply made are resolved (the
      lowest id stays). Every Role gets a result line; when some fail or are unknown it exits 1,
      and \`apply\` again converges. Ctrl-C starts no new change and reports what was done.

      Several tenants (\`--tenant\` more than once, \`--all-tenants\`, or a saved plan of several):
      each tenant's plan is shown (and approved once), then carried out one tenant at a time in
      order, each under a \`=== tenant NAME ===\` heading. It stops at the first tenant that is
      refused (exit 4) or fails (exit 1); the closing \`Tenants: …\` line (and \`--json\`'s
      \`not_attempted\`) says which tenants were done and which were not attempted. A saved plan of
      several checks every tenant read-only before the first is applied (its digest, today's guards,
      each tenant's base URL, then one list of each: the token and whether its Roles changed since):
      any tenant not ready refuses the whole file with every tenant's reasons, nothing applied
      anywhere (exit 4; exit 1 when a tenant could not be asked). Each tenant is checked again just
      before its turn; one that fails on its turn ends the run there, named, and the \`Tenants:\`
      line (and \`--json\`) still says which were done. It applies all its tenants, each where it
      was planned: \`--tenant\`, \`ROLEFLOW_TENANT\`, \`--all-tenants\`, \`--base-url\` and \`--ws-url\`
      do not go with it (exit 1); for fewer tenants, make a plan of those.
    `,
    examples: [
      ['Review, then confirm', 'roleflow apply'],
      ['In CI, without a prompt', 'roleflow apply --auto-approve --tenant staging'],
      ['Apply a reviewed plan exactly', 'roleflow plan --out plan.json && roleflow apply plan.json'],
      ['Also delete Roles without a role file, results as JSON', 'roleflow apply --prune --auto-approve --json'],
      ['Only some Roles', 'roleflow apply --target support-agent --auto-approve'],
      ['Only the Roles of these files', 'roleflow apply roles/support-agent.md roles/billing.md'],
      ['A reviewed plan of several tenants, tenant by tenant', 'roleflow plan --all-tenants --out plan.json && roleflow apply plan.json'],
      ['A reviewed plan of production, applied there (the plan names its tenant)', 'roleflow plan --tenant production --out prod.json && roleflow apply prod.json'],
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
  args = Option.Rest({ name: 'PLANFILE | ROLEFILE' });
  autoApprove = autoApproveOption('Apply a fresh plan without asking');
  concurrency = applyConcurrencyOption();
  json = jsonOption('Print the results as JSON on stdout');

  async execute(): Promise<number> {
    const { apply } = await import('../../run/roles/apply.js');
    const { tenants, baseUrl, wsUrl, allTenants, roles, prune, allowEmptyPrune, args, autoApprove, concurrency, json } = this;
    return apply({ ...this.common, tenants, baseUrl, wsUrl, allTenants, targets: this.target, roles, prune, allowEmptyPrune, args, autoApprove, concurrency, json }, this.ports);
  }
}
