import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { TenantCommand } from '../tenant-command.js';

export class HistoryCommand extends TenantCommand {
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

  limit = Option.String('--limit', '20', { description: 'How many records, newest first (default 20)', validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]) });
  json = Option.Boolean('--json', false, { description: 'Print the records as JSON on stdout' });

  async execute(): Promise<number> {
    const [{ history }, { renderHistoryText }, { tenantNameOf }] = await Promise.all([import('../../run/history.js'), import('../../core/history/index.js'), import('../../tenant/open-tenant.js')]);
    const config = await this.loadConfig();
    const tenant = tenantNameOf(config, { tenant: this.tenant, baseUrl: this.baseUrl });
    const doc = await history({ cwd: this.context.cwd, config, tenant, limit: Number(this.limit) }, { open: (name) => this.openTenant(config, name), warn: (line) => this.io.err(line) });
    if (this.json) this.io.outJson(doc);
    else this.io.out(renderHistoryText(doc));
    return 0;
  }
}
