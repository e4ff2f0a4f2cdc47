import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ManyTenantsCommand } from '../tenant-command.js';

export class DriftCommand extends ManyTenantsCommand {
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

  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  json = Option.Boolean('--json', false, { description: 'Print the result as JSON on stdout' });
  detailedExitcode = Option.Boolean('--detailed-exitcode', false, { description: 'Exit 5 when a Role drifted, 2 when Roles are pending only, 0 when clean' });
  notify = Option.String('--notify', { description: "issue: add each tenant's GitHub issue to the result (the Action posts it)", validator: t.isEnum(['issue'] as const) });

  async execute(): Promise<number> {
    const [{ drift }, core, { tenantNameOf }, { quote }] = await Promise.all([
      import('../../run/drift.js'),
      import('../../core/drift/index.js'),
      import('../../tenant/open-tenant.js'),
      import('../../core/roles/index.js'),
    ]);
    const config = await this.loadConfig();
    const several = await this.severalTenants(config);
    const names = several ?? [tenantNameOf(config, { tenant: this.tenant, baseUrl: this.baseUrl })];
    const open = (name: string) => (several === undefined ? this.openTenant(config) : this.openTenantWith(config, { tenant: name }, true));
    const doc = await drift({ cwd: this.context.cwd, config, tenants: names, roles: this.roles }, { open, warn: (line) => this.io.err(line) });
    const reported = doc.tenants.filter((entry) => !core.isDriftError(entry)) as import('../../core/drift/index.js').TenantDrift[];
    if (this.notify === 'issue') for (const entry of reported) entry.issue = core.driftIssue(entry);
    if (this.json) this.io.outJson(doc);
    else {
      this.io.out(core.renderDriftText(doc));
      for (const entry of reported) {
        if (entry.issue === undefined) continue;
        this.io.err(`notify: the issue of tenant ${quote(entry.tenant)} is to be ${entry.issue.open ? 'open' : 'closed'}: the Action's command: drift with notify: issue posts it (--json holds its title and body)`);
      }
    }
    const failed = doc.tenants.filter(core.isDriftError);
    for (const entry of failed) this.io.err(`error: tenant ${quote(entry.tenant)}: ${entry.error.message}`);
    if (failed.length > 0) return 1;
    return this.detailedExitcode ? core.driftExitCode(reported.flatMap((entry) => entry.roles.map((r) => r.status))) : 0;
  }
}
