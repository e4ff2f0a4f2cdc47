import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RoleflowCommand } from './base.js';
import { jsonOption } from './options.js';

export class LintCommand extends RoleflowCommand {
  static override paths = [['lint']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Check role files and flow tests against the config\'s policy (offline)',
    details: `
      Runs the rules of the config's \`policy:\` over the role files and flow test files of the
      given files and folders (default: \`roles/\` and \`flows/\`, or \`roles.dir\` and \`flows.dir\`):
      for Roles \`max_chars\`, \`forbid\` (phrases, or \`/regex/flags\`), \`must_include\`, \`name\` (a
      pattern), \`description: required\`; for flow tests \`require_assertions\` and \`max_repeat\`.
      A secret in a Role's name, description or content — a common key format (AWS, GitHub,
      \`sk-\` API keys, Slack, private keys, JWTs), a configured tenant's token, or the value of any
      secret variable of the environment (\`*TOKEN*\`, \`*SECRET*\`, \`*PASSWORD*\`) — is always an
      error (\`secrets\`), and never printed. A file that does not parse is an \`invalid\` finding.
      Then each of \`policy.plugins\` (ES modules whose default export maps the parsed files to
      findings) adds its own.

      Each finding has a rule, a level (\`policy.roles.level\`, \`policy.flows.level\`, per rule
      \`levels:\`; default error), and the file:line:col of its cause. \`--format json\` prints
      \`{format_version, findings}\` (schemas/lint.schema.json); \`--format sarif\` prints SARIF
      2.1.0 for GitHub code scanning (upload it with github/codeql-action/upload-sarif).

      Talks to no tenant. Exit codes: 0 no finding of level error or hard, 1 some (or bad usage,
      an unreadable config or plugin).
    `,
    examples: [
      ['Lint roles/ and flows/', 'roleflow lint'],
      ['Only some files', 'roleflow lint roles/support-agent.md flows/summarize.yaml'],
      ['SARIF for GitHub code scanning', 'roleflow lint --format sarif > roleflow.sarif'],
      ['Findings as JSON, for a bot', 'roleflow lint --format json'],
    ],
  });

  targets = Option.Rest({ name: 'path' });
  format = Option.String('--format', { description: 'text (default), json or sarif', validator: t.isEnum(['text', 'json', 'sarif'] as const) });
  json = jsonOption('Same as --format json');

  async execute(): Promise<number> {
    const { lint } = await import('../run/policy/lint.js');
    return lint({ ...this.common, paths: this.targets, format: this.json ? 'json' : (this.format ?? 'text') }, this.ports);
  }
}
