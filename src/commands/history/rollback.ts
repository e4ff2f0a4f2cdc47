import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { applyConcurrencyOption, autoApproveOption, baseUrlOption, jsonOption, tenantsOption, wsUrlOption } from '../options.js';

export class RollbackCommand extends RoleflowCommand {
  static override paths = [['rollback']];
  static override usage = Command.Usage({
    category: 'History, rollback and drift',
    description: 'Plan and apply the way back to a commit, or to the tenant before a journal record',
    details: `
      \`--to COMMIT\`: the role files of that commit (read with git, not the work tree, with its
      \`vars\` and \`tenants:\`). \`--to ID\`: the Roles the tenant held right before journal record ID
      (an id, or the start of exactly one), each from the content the journal kept (a hand edit an
      apply overwrote) or from the role files of the commits the journal names; a Role found in
      neither stops it (exit 1, naming it). An ID or commit that does not exist: one line, exit 1.

      Then it is an ordinary plan: shown, refused by \`protect\`, \`max_deletes\` and the empty-prune
      guard (exit 4, nothing sent), deleting Roles only with \`--prune\` (or \`roles.prune\`), asked
      for on a terminal unless \`--auto-approve\` (refused without it when stdin is not one), and
      carried out like \`apply\`, journalled with \`rollback_of\`. \`--out FILE\` saves the plan instead,
      for review and \`roleflow apply FILE\` (refused if the tenant changed since).
    `,
    examples: [
      ['Back to the Roles of a tag', 'roleflow rollback --to v1.4.0 --tenant production'],
      ['Undo one apply, hand edits it overwrote included', 'roleflow rollback --to 20261128-064326-a1b2 --prune'],
      ['Save the way back for review', 'roleflow rollback --to HEAD~1 --out rollback.json && roleflow apply rollback.json'],
    ],
  });

  tenants = tenantsOption();
  baseUrl = baseUrlOption();
  wsUrl = wsUrlOption();
  to = Option.String('--to', { required: true, description: 'A journal record id (roleflow history lists them), or a commit git knows' });
  prune = Option.Boolean('--prune', { description: 'Delete Roles the target does not have (--no-prune overrides the config)' });
  allowEmptyPrune = Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when the target has none' });
  outFile = Option.String('--out', { description: 'Save the plan for `roleflow apply FILE` instead of applying it' });
  autoApprove = autoApproveOption('Apply without asking');
  concurrency = applyConcurrencyOption();
  json = jsonOption('Print the result of applying as JSON on stdout');

  async execute(): Promise<number> {
    const { rollback } = await import('../../run/history/rollback.js');
    const { tenants, baseUrl, wsUrl, to, prune, allowEmptyPrune, autoApprove, concurrency, json } = this;
    return rollback({ ...this.common, tenants, baseUrl, wsUrl, to, prune, allowEmptyPrune, out: this.outFile, autoApprove, concurrency, json }, this.ports);
  }
}
