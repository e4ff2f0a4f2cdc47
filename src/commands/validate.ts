import { safeText } from '../core/safe-text.js';
import { Command, Option } from 'clipanion';
import { formatIssue } from '../core/errors.js';
import { RoleflowCommand } from './base.js';

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

      A flow test that may run over WebSocket with no \`until.node\` or \`until.messages\` gets a
      warning on stderr (the exit code is unchanged): only quiet ends it, so it passes even when a
      later node never finishes. \`flows.strict_end: true\` turns the warning off, since a quiet end
      is then an error of \`roleflow test\`.
    `,
    examples: [
      ['Check roles/ and flows/', 'roleflow validate'],
      ['Check other folders', 'roleflow validate --roles tenants/acme/roles --flows tenants/acme/flows'],
      ['Problems as JSON, for an editor or a bot', 'roleflow validate --json'],
    ],
  });

  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  flows = Option.String('--flows', { description: 'Folder of flow test files (default: flows.dir of the config, else flows)' });
  json = Option.Boolean('--json', false, { description: 'Print the result as JSON on stdout' });

  async execute(): Promise<number> {
    const { rolesDirOf } = await import('../files/role-files.js');
    const { flowsDirOf } = await import('../files/flow-files.js');
    const { validateSources } = await import('../run/validate.js');
    const config = await this.loadConfig();
    const cwd = this.context.cwd;
    const roles = rolesDirOf(cwd, config, this.roles);
    const flows = flowsDirOf(cwd, config, this.flows);
    const { tenantVars } = await import('../core/config.js');
    // Every configured tenant, and the embedded one when it is in use (no tenants configured, or
    // default_tenant: local): a variable one of them lacks is an error.
    const configured = Object.keys(config.tenants);
    const usesLocal = configured.length === 0 || config.defaultTenant === 'local';
    const names = [...new Set([...(usesLocal ? ['local'] : []), ...configured])];
    const tenants = names.map((name) => ({ name, vars: tenantVars(config, name) }));
    const result = await validateSources(cwd, roles, flows, { strictEnd: config.flows.strictEnd, tenants });
    const valid = result.issues.length === 0;
    // On stderr whatever the format: warnings change neither the exit code nor the JSON.
    if (result.warnings.length > 0) this.io.err(result.warnings.map(formatIssue).join('\n'));

    if (this.json) {
      this.io.outJson({ valid, role_files: result.roleFiles, flow_files: result.flowFiles, not_found: result.absent, issues: result.issues });
    } else if (!valid) {
      this.io.err(result.issues.map(formatIssue).join('\n'));
    } else {
      for (const dir of result.absent) this.io.err(`note: ${safeText(dir)}/ not found, nothing checked there`);
      this.io.out(`${plural(result.roleFiles, 'role file')} and ${plural(result.flowFiles, 'flow test file')} are valid.`);
    }
    return valid ? 0 : 1;
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
