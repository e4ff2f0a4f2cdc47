import { resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { approveFreshPlans, carryOutPlan, printApplyJson, type ApplyFlags } from '../roles/applying.js';
import { shellWord } from '../../core/roles/display.js';
import { TenantCommand } from '../tenant-command.js';

export class RollbackCommand extends TenantCommand {
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

  to = Option.String('--to', { required: true, description: 'A journal record id (roleflow history lists them), or a commit git knows' });
  prune = Option.Boolean('--prune', { description: 'Delete Roles the target does not have (--no-prune overrides the config)' });
  allowEmptyPrune = Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when the target has none' });
  outFile = Option.String('--out', { description: 'Save the plan for `roleflow apply FILE` instead of applying it' });
  autoApprove = Option.Boolean('--auto-approve', false, { description: 'Apply without asking' });
  concurrency = Option.String('--concurrency', {
    description: 'Requests at once (default: roles.concurrency of the config, else 4)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 64)]),
  });
  json = Option.Boolean('--json', false, { description: 'Print the result of applying as JSON on stdout' });

  async execute(): Promise<number> {
    if (this.outFile === '-') throw new RoleflowError('--out -: a saved plan must be a file', 'usage');
    const [{ planRollback }, { renderPlanText }] = await Promise.all([import('../../run/rollback.js'), import('../../core/plan/index.js')]);
    const config = await this.loadConfig();
    const rollback = await planRollback(
      { cwd: this.context.cwd, config, to: this.to, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune, now: new Date() },
      { open: () => this.openTenant(config), warn: (line) => this.io.err(line) },
    );
    const { plan, tenant } = rollback;
    if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
    this.io.err(`Rolling tenant ${tenant.target.name} back to ${rollback.target}.`);
    const shown = renderPlanText(plan, { color: this.colorFor(this.json || this.outFile !== undefined ? 'stderr' : 'stdout'), rolesDir: '' });
    if (this.outFile !== undefined) {
      await tenant.close();
      this.io.out(shown);
      if (plan.guards.length > 0) {
        this.io.err([...plan.guards.map((g) => `error: ${g.message}`), `The plan was not saved to ${this.outFile}: guards refuse it.`].join('\n'));
        return ExitCode.Refused;
      }
      const { savePlan } = await import('../../files/plan-file.js');
      await savePlan(resolve(this.context.cwd, this.outFile), plan);
      this.io.err(`Saved the plan to ${this.outFile}. To carry out exactly this plan: roleflow apply ${this.outFile}`);
      return ExitCode.Ok;
    }
    const flags: ApplyFlags = {
      json: this.json,
      autoApprove: this.autoApprove,
      concurrency: this.concurrency ?? config.roles.concurrency,
      protect: config.roles.protect,
      saveAndApply: `roleflow rollback --to ${shellWord(this.to)} --out plan.json && roleflow apply plan.json`,
      journal: { config, command: 'rollback', rollbackOf: rollback.rollbackOf, commit: rollback.commit },
    };
    const approved = await approveFreshPlans(this, [plan], shown, flags);
    const ends = approved === 'approved' || approved[0]?.status === 'no_changes' ? [await carryOutPlan(this, plan, tenant, flags, false, rollback.remote)] : approved;
    if (this.json) await printApplyJson(this, ends, undefined);
    return ends[0]!.code;
  }
}
