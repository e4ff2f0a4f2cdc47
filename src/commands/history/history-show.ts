import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { baseUrlOption, jsonOption, tenantsOption, wsUrlOption } from '../options.js';

export class HistoryShowCommand extends RoleflowCommand {
  static override paths = [['history', 'show']];
  static override usage = Command.Usage({
    category: 'History, rollback and drift',
    description: 'One journal record, with its content diffs',
    details: `
      Shows record ID of the tenant's journal (its id, or the start of exactly one id): when, who,
      the commit, ref and run, and each change with its outcome. \`--diff\` adds each change's
      content diff: the content after, from the role files of the record's commit (read with git,
      rendered for the tenant); before, from the content the journal kept (a hand edit roleflow
      overwrote) or the files of an earlier record's commit. An ID the journal does not hold is one
      line, exit 1.
    `,
    examples: [
      ['What one apply did', 'roleflow history show 20261128-064326-a1b2'],
      ['With the content it changed', 'roleflow history show 20261128-0643 --diff'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  id = Option.String({ name: 'ID' });
  diff = Option.Boolean('--diff', false, { description: "Each change's content diff" });
  json = jsonOption('Print the record (and with --diff each side of each change) as JSON on stdout');

  async execute(): Promise<number> {
    const { historyShow } = await import('../../run/history/history.js');
    const { tenants, baseUrl, wsUrl, id, diff, json } = this;
    return historyShow({ ...this.common, tenants, baseUrl, wsUrl, id, diff, json }, this.ports);
  }
}
