import { Command, Option } from 'clipanion';
import { TenantCommand } from '../tenant-command.js';

export class PullCommand extends TenantCommand {
  static override paths = [['pull']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: "Write the tenant's Roles as role files, to adopt an existing tenant",
    details: `
      Writes every Role of the tenant (except those \`roles.ignore\` matches) as a role file with
      its \`id\`, so that \`roleflow plan\` right after shows no change. A Role that already has a file
      (pinned by \`id\`, else with its name) keeps writing to that file; others get a new file named
      after the Role (lower-case letters, digits, \`-\` and \`_\`; \`-2\`, \`-3\`… on a collision),
      always directly in the folder whatever the name holds. Roles that share a name get a file
      each, told apart by its \`id\` (a warning says so), and \`plan\` matches them by id.

      A local file that already matches its Role is left alone. One that differs is never
      overwritten without \`--force\`: it is skipped with a warning. Role files of Roles the
      tenant does not hold are left alone.

      Files are compared as this tenant renders them: a Role equal to its file with the tenant's
      \`\${vars.NAME}\` values put in is unchanged. Text written anew has \`\${vars.\` escaped as
      \`$\${vars.\`, so it reads back as exactly the Role. A Role whose file is not for this tenant
      (front-matter \`tenants:\`) is skipped with a warning, and the file is left alone.

      \`--target NAME_OR_GLOB\` (repeatable) pulls only the Roles it matches, and speaks only of
      their files: \`roleflow drift\` names it to adopt a hand edit into the files. The apply
      journal's Role (\`roleflow.history\`) is never pulled.
    `,
    examples: [
      ['Adopt the default tenant into roles/', 'roleflow pull'],
      ['Pull staging into another folder', 'roleflow pull --tenant staging --roles staging-roles'],
      ['Overwrite local edits with what the tenant holds', 'roleflow pull --force'],
      ['Adopt one Role edited on the tenant into its file (drift said it drifted)', 'roleflow pull --target support-agent --force'],
    ],
  });

  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  force = Option.Boolean('--force', false, { description: 'Overwrite local role files that differ from the tenant' });
  target = Option.Array('--target', { description: 'Only the Roles with this name or glob (repeatable): e.g. adopt one hand edit into the files' });
  json = Option.Boolean('--json', false, { description: 'Print what was written as JSON on stdout' });

  async execute(): Promise<number> {
    const { rolesDirOf } = await import('../../files/role-files.js');
    const { pullRoles } = await import('../../run/pull.js');
    const { planTenantOf } = await import('../../run/plan.js');
    const { quote, showName } = await import('../../core/roles/index.js');
    const { planBaseUrl } = await import('../../core/plan/index.js');
    const config = await this.loadConfig();
    const dir = rolesDirOf(this.context.cwd, config, this.roles);
    const tenant = await this.openTenant(config);
    let result: Awaited<ReturnType<typeof pullRoles>>;
    try {
      const remote = await tenant.client.listRoles();
      const { tenantVars } = await import('../../core/config.js');
      const name = tenant.target.name;
      result = await pullRoles({ cwd: this.context.cwd, dir, remote, ignore: config.roles.ignore, force: this.force, tenant: name, vars: tenantVars(config, name), ...(this.target && { targets: this.target }) });
    } finally {
      await tenant.close();
    }
    const label = planTenantOf(tenant);
    const count = (status: string): number => result.roles.filter((r) => r.status === status).length;
    const written = count('written') + count('overwritten');
    const pulled = result.roles.length;

    for (const r of result.roles) {
      const what = `${showName(r.name)} (id ${showName(r.id)})`;
      if (r.status === 'skipped') this.io.err(`warning: skipped ${r.file === undefined ? '' : `${r.file}, `}Role ${what}: ${r.reason ?? ''}`);
      else if (!this.json && r.status !== 'unchanged') this.io.out(`${r.status === 'written' ? '+ wrote' : '~ overwrote'} ${r.file ?? ''}: ${what}`);
    }
    for (const { name, count } of result.sharedNames) {
      this.io.err(`warning: the tenant holds ${count} Roles named ${showName(name)} (pinned by id in the files)`);
    }
    for (const a of result.ambiguous) {
      this.io.err(`warning: ${a.file} has no id and ${a.count} Roles are named ${showName(a.name)}: add "id:" to pin the one it manages`);
    }
    if (result.localOnly.length > 0 && !this.json) {
      this.io.out(`${result.localOnly.length} role file(s) whose Role is not on the tenant were left alone: ${result.localOnly.join(', ')}`);
    }
    if (result.notForTenant.length > 0 && !this.json) {
      const files = result.notForTenant.join(', ');
      this.io.out(`${result.notForTenant.length} role file(s) not for tenant ${quote(label.name)} (their tenants: does not name it) were left alone: ${files}`);
    }
    if (this.json) {
      const document = {
        tenant: { name: label.name, base_url: planBaseUrl(label.baseUrl) },
        dir: dir.display,
        summary: { written, unchanged: count('unchanged'), skipped: count('skipped') },
        roles: result.roles,
        local_only: result.localOnly,
        not_for_tenant: result.notForTenant,
      };
      this.io.outJson(document);
    } else {
      this.io.out(
        `Pulled ${pulled} Role${pulled === 1 ? '' : 's'} from tenant ${showName(label.name)} into ${dir.display}/: ` +
          `${written} written, ${count('unchanged')} unchanged, ${count('skipped')} skipped.`,
      );
    }
    return 0;
  }
}
