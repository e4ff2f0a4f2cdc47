import { Command, Option } from 'clipanion';
import { RoleflowCommand } from './base.js';
import { jsonOption, rolesOption } from './options.js';

export class ValidateCommand extends RoleflowCommand {
  static override paths = [['validate']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Check every role file and flow test offline',
    details: `
      Parses and schema-checks every role file (\`roles/**/*.md\`, README.md excepted: YAML
      front-matter with \`name\`, \`description\` and optionally \`id\`, then the content) and every
      flow test file (\`flows/**/*.yaml\`, \`*.yml\`). Names or ids used by two role files are an
      error naming both. Talks to no tenant. Role files are rendered for every configured tenant
      (each file for the tenants its \`tenants:\` front-matter names), and for the embedded
      \`local\` only when it is in use — no tenants configured, or \`default_tenant: local\`: a
      \`\${vars.NAME}\` one of them does not declare, or a Role rendering over 1,047,552 bytes, is
      an error naming the tenants. A name in \`tenants:\` that is no tenant of the config (nor
      \`local\`) gets a warning (probably a typo), and so does \`tenants: []\`.

      Every problem of every file is printed as \`file:line:col: message\` on stderr and the exit
      code is 1; \`--json\` prints them as JSON on stdout instead. The folders come from
      \`roles.dir\` and \`flows.dir\` of the config (default \`roles\` and \`flows\`).

      When the embedded tenant is in use (as above) or the config has \`local.flows_config\`, every
      Role its flows name (a step's \`role:\`, \`\${role.NAME.content}\`) must be in a role file that
      is for \`local\`; one that is not is an error at the reference in the flows file, since the
      flow fails there without it. Every flow of \`local.flows_config\` is checked; of the built-in
      flows file, which serves the examples of roleflow and of \`init\`, the flows your flow tests run.

      Warnings on stderr (the exit code is unchanged) about tests that would pass without testing
      what they say: a test that may run over WebSocket with no \`until.node\` or \`until.messages\`
      (only quiet ends it, so it passes even when a later node never finishes;
      \`flows.strict_end: true\` turns this one off, since a quiet end is then an error of
      \`roleflow test\`); a test that runs only over HTTPS and asserts on outputs (the execution log
      has none: they are always skipped), at its first output assertion; a test that runs only over
      WebSocket where the tenant has no ws_url (always skipped). The tenant is the one a plain
      \`roleflow test\` would use: \`ROLEFLOW_TENANT\`, else \`default_tenant\`, else the embedded
      \`local\` (which has a ws_url).
    `,
    examples: [
      ['Check roles/ and flows/', 'roleflow validate'],
      ['Check other folders', 'roleflow validate --roles tenants/acme/roles --flows tenants/acme/flows'],
      ['Problems as JSON, for an editor or a bot', 'roleflow validate --json'],
    ],
  });

  roles = rolesOption();
  flows = Option.String('--flows', { description: 'Folder of flow test files (default: flows.dir of the config, else flows)' });
  json = jsonOption('Print the result as JSON on stdout');

  async execute(): Promise<number> {
    const { validate } = await import('../run/validate.js');
    return validate({ ...this.common, roles: this.roles, flows: this.flows, json: this.json }, this.ports);
  }
}
