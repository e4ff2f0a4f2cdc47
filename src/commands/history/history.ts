import { Command } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { baseUrlOption, jsonOption, numberOptionOr, tenantsOption, wsUrlOption } from '../options.js';

export class HistoryCommand extends RoleflowCommand {
  static override paths = [['history']];
  static override usage = Command.Usage({
    category: 'History, rollback and drift',
    description: 'The apply journal: who applied what, when, from which commit and run',
    details: `
      Every \`apply\`, \`promote\` and \`rollback\` (and \`preview\`'s applies) appends a record per
      tenant to its journal: \`history\` lists the tenant's newest records, newest first — id, when,
      who, the commit, the changes (\`+1 ~3 -0\`) and how it ended (\`completed\`, \`failed\`,
      \`interrupted\`; a record never completed, its process killed, reads as interrupted).
      \`roleflow history show ID\` shows one.

      The journal is \`.roleflow/history/<tenant>.jsonl\` beside the config (read without asking the
      tenant), or with \`history: {store: tenant}\` the tenant's reserved Role \`roleflow.history\`.
      \`--json\` is \`schemas/history.schema.json\`.
    `,
    examples: [
      ['The last applies to production', 'roleflow history --tenant production'],
      ['All of them, as JSON', 'roleflow history --limit 1000 --json'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  limit = numberOptionOr('--limit', '20', 'How many records, newest first (default 20)', { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true });
  json = jsonOption('Print the records as JSON on stdout');

  async execute(): Promise<number> {
    const { history } = await import('../../run/history/history.js');
    const { tenants, baseUrl, wsUrl, json } = this;
    return history({ ...this.common, tenants, baseUrl, wsUrl, json, limit: Number(this.limit) }, this.ports);
  }
}
