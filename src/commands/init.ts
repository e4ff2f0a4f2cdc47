import { Command, Option } from 'clipanion';
import { RoleflowCommand } from './base.js';
import { jsonOption } from './options.js';

export class InitCommand extends RoleflowCommand {
  static override paths = [['init']];
  static override usage = Command.Usage({
    category: 'Getting started',
    description: 'Scaffold roleflow in a repository',
    details: `
      Writes, into DIR (default: the current folder): \`roleflow.config.yaml\` (with a schema hint
      for editors), \`roles/example-assistant.md\`, \`flows/example.yaml\` (a flow test that passes
      against the embedded tenant once the Role is applied), \`.github/workflows/roleflow.yml\` (plan and flow tests on pull
      requests with sticky comments, apply on the default branch one at a time, a daily drift
      check), \`.vscode/settings.json\` (the schemas of \`node_modules/roleflow/schemas/\`) and
      \`.roleflow/\` and \`node_modules/\` in \`.gitignore\`.

      A file that exists is never overwritten without \`--force\`; \`.vscode/settings.json\` and
      \`.gitignore\` are merged into, never replaced. Every file is listed with what was done.
      Right after, \`roleflow validate\`, \`plan\`, \`apply\` and then \`test\` pass against the
      embedded tenant (the example flow test runs with the example Role: apply it first). More
      in the package's docs/configuration.md (every key, editor setup) and docs/environments.md.

      With \`--tenant NAME --base-url URL\` (and \`--ws-url URL\`), the config also holds that tenant,
      its token read from \`ROLEFLOW_TOKEN_<NAME>\`, and the workflow runs against it. In a
      repository that already has \`roleflow.config.yaml\`, that is how a second tenant is added:
      the tenant goes under \`tenants:\`, every comment and key of the file kept, and the files
      that exist (the workflow too) are left as they are. A config that already has the tenant, or
      that is not a YAML mapping, is left alone, saying so (exit 1 for the latter). The workflow
      init wrote for the embedded tenant, if unedited, is replaced by the one for the tenant.

      \`--preview-tenant NAME\` marks NAME \`preview: true\` in the config (\`local\`: the embedded
      tenant; otherwise a tenant of the config, or the one \`--tenant\` adds).
    `,
    examples: [
      ['Scaffold the current repository', 'roleflow init'],
      ['Scaffold another folder', 'roleflow init path/to/repo'],
      ['With a staging tenant', 'roleflow init --tenant staging --base-url https://flows.example.com/t/acme --ws-url wss://flows.example.com/t/acme/ws'],
      ['Add a production tenant to an existing config', 'roleflow init --tenant production --base-url https://flows.example.com/t/acme-prod'],
      ['A tenant set aside for previews, and the pull-request job that previews on it', 'roleflow init --tenant preview --base-url https://flows.example.com/t/acme-preview --preview-tenant preview'],
      ['Previews on the embedded tenant', 'roleflow init --preview-tenant local'],
      ['Write the templates again over existing files', 'roleflow init --force'],
    ],
  });

  dir = Option.String({ name: 'DIR', required: false });
  tenant = Option.String('--tenant', { description: 'A tenant to configure beside the embedded one (needs --base-url)' });
  baseUrl = Option.String('--base-url', { description: "That tenant's base URL" });
  wsUrl = Option.String('--ws-url', { description: "That tenant's WebSocket URL" });
  previewTenant = Option.String('--preview-tenant', { description: 'Mark this tenant preview: true and preview pull requests on it (local: the embedded tenant)' });
  force = Option.Boolean('--force', false, { description: 'Overwrite files that exist (settings and .gitignore are still merged)' });
  json = jsonOption('Print what was done as JSON on stdout');

  async execute(): Promise<number> {
    const { init } = await import('../run/init.js');
    const { dir, tenant, baseUrl, wsUrl, previewTenant, force, json } = this;
    return init({ ...this.common, dir, tenant, baseUrl, wsUrl, previewTenant, force, json }, this.ports);
  }
}
