import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { baseUrlOption, jsonOption, rolesOption, tenantsOption, wsUrlOption } from '../options.js';

export class PullCommand extends RoleflowCommand {
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

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  roles = rolesOption();
  force = Option.Boolean('--force', false, { description: 'Overwrite local role files that differ from the tenant' });
  targets = Option.Array('--target', { description: 'Only the Roles with this name or glob (repeatable): e.g. adopt one hand edit into the files' });
  json = jsonOption('Print what was written as JSON on stdout');

  async execute(): Promise<number> {
    const { pull } = await import('../../run/roles/pull.js');
    const { tenants, baseUrl, wsUrl, roles, force, json, targets } = this;
    return pull({ ...this.common, tenants, baseUrl, wsUrl, roles, force, json, targets }, this.ports);
  }
}
