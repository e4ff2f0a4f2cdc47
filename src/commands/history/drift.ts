import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RoleflowCommand } from '../base.js';
import { allTenantsOption, baseUrlOption, jsonOption, rolesOption, tenantsOption, wsUrlOption } from '../options.js';

export class DriftCommand extends RoleflowCommand {
  static override paths = [['drift']];
  static override usage = Command.Usage({
    category: 'History, rollback and drift',
    description: 'How each Role stands against the files and what roleflow last applied (read-only)',
    details: `
      Read-only, whatever its flags: it lists the tenant and reads the journal, and sends no change.
      Each Role is \`in sync\` (the tenant holds what the files say), \`pending\` (the files changed
      since roleflow last applied them; the tenant is as applied: a merge not applied yet),
      \`drifted\` (changed on the tenant since roleflow applied it; the files are as applied: a hand
      edit), \`conflict\` (both changed), \`created outside\` (on the tenant, never applied, in no
      file) or \`deleted outside\` (applied, gone from the tenant). Without a journal, a difference
      is \`unclassified\`. Each line names what settles it: \`apply\` puts the files back on the
      tenant, \`pull --target NAME --force\` adopts a hand edit into the files.

      \`drift.ignore\` globs in the config hide expected noise. \`--detailed-exitcode\`: 0 clean, 2
      pending (or unclassified) Roles only, 5 a Role drifted, in conflict, or created or deleted
      outside roleflow. \`--json\` is \`schemas/drift.schema.json\`; \`--notify issue\` adds each
      tenant's GitHub issue (\`<!-- roleflow:drift:TENANT -->\`, open while anything drifted), which
      the Action's \`command: drift\` with \`notify: issue\` opens, updates or closes.
    `,
    examples: [
      ['Is production as roleflow left it?', 'roleflow drift --tenant production'],
      ['Nightly, every tenant (0 clean, 2 pending, 5 drifted)', 'roleflow drift --all-tenants --detailed-exitcode'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  allTenants = allTenantsOption();
  roles = rolesOption();
  json = jsonOption('Print the result as JSON on stdout');
  detailedExitcode = Option.Boolean('--detailed-exitcode', false, { description: 'Exit 5 when a Role drifted, 2 when Roles are pending only, 0 when clean' });
  notify = Option.String('--notify', { description: "issue: add each tenant's GitHub issue to the result (the Action posts it)", validator: t.isEnum(['issue'] as const) });

  async execute(): Promise<number> {
    const { drift } = await import('../../run/history/drift.js');
    const { tenants, baseUrl, wsUrl, allTenants, roles, json, detailedExitcode, notify } = this;
    return drift({ ...this.common, tenants, baseUrl, wsUrl, allTenants, roles, json, detailedExitcode, notify }, this.ports);
  }
}
