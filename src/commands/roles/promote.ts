import { Command, Option } from 'clipanion';
import { RoleflowCommand } from '../base.js';
import { allowEmptyPruneOption, applyConcurrencyOption, autoApproveOption, jsonOption, pruneOption, rolesOption } from '../options.js';

export class PromoteCommand extends RoleflowCommand {
  static override paths = [['promote']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Apply the role files to a tenant once they passed the flow tests on another',
    details: `
      Test-gated promotion from tenant \`--from\` (say staging) to tenant \`--to\` (say production).
      Nothing is sent to \`--to\` unless all of this holds; otherwise it exits 4 and names every
      reason at once, one line each. First, \`--from\` matches the role files: its fresh plan has
      no change (apply there first).

      Second, \`--report FILE\` is a JSON test report (\`roleflow test --reporter json=FILE\`, or a
      \`roleflow report merge\` of its shards) of tenant \`--from\` that stands for the Roles being
      promoted. The Roles: the tenant held those the role files render to for it at this commit
      (its vars and \`tenants:\` membership, as the plan compares them) both when the tests started
      and when they ended (the report's \`roles_digest\`), so tests run before the role files were
      applied there are refused. The suite: the config's whole suite, its flows folder (not another
      \`--config\`'s), not narrowed by PATH arguments, \`--grep\` or \`--transport\`, not one shard
      alone, no shard missing, not interrupted, no test left unrun by \`--bail\` (the complete
      shards of a whole run, merged, pass). The results: no failed or errored test and at least
      one passed (skips alone checked nothing), counted from its results; a report whose
      \`summary\` does not match them is refused. The commit: its \`commit\` (\`$GITHUB_SHA\` when
      it is a full sha, else \`git rev-parse HEAD\` where the tests ran) is the one here, found the
      same way; a report without one is refused, and so is a \`$GITHUB_SHA\` that is not the commit
      checked out (in a git checkout: the files here are HEAD's). The work tree: clean where the
      tests ran (the report's \`work_tree\`: no tracked file changed, no untracked file git does
      not ignore, before the run and after it; \`.roleflow/\` and the run's own reports do not
      count); a run outside a git checkout cannot tell, and is refused.

      Third, in a git checkout, the role files, the flow tests and the config here have no
      uncommitted change (staged, unstaged or untracked and not ignored), no file roleflow reads is
      ignored by git, and none lies outside the checkout (outside a checkout, with \`$GITHUB_SHA\`
      set, this is not checked). Role files that resolve outside the repository (a symbolic link
      to a file elsewhere) are refused, as \`validate\` and \`plan\` refuse them. \`--from local\`,
      the embedded tenant, is refused: it is a stand-in started for each command, and its tests
      cannot gate a real tenant.

      Then it plans \`--to\` as \`roleflow apply\` does and applies it: it asks on a terminal, refuses
      without \`--auto-approve\` when stdin is not one, and says \`No changes.\` (exit 0) when there
      is nothing to do. With \`--out FILE\` it saves the plan of \`--to\` instead, for review and
      \`roleflow apply FILE\`. Guards (\`protect\`, \`max_deletes\`) refuse it as they refuse apply.

      Exit codes: 0 promoted (or saved, or nothing to do), 4 refused by the gate or by guards, 1
      invalid role files, an unreachable tenant, a failed apply.
    `,
    examples: [
      ['In CI, after the tests passed on staging', 'roleflow promote --from staging --to production --report roleflow-report.json --auto-approve'],
      ['Save the plan of production for review instead', 'roleflow promote --from staging --to production --report report.json --out production-plan.json'],
      ['Gate on a merged report of sharded runs', 'roleflow report merge shard-*/report.json --out report.json && roleflow promote --from staging --to production --report report.json'],
    ],
  });

  from = Option.String('--from', { required: true, description: 'The tenant the role files were applied and tested on' });
  to = Option.String('--to', { required: true, description: 'The tenant to promote them to' });
  report = Option.String('--report', { required: true, description: "A JSON test report of --from's run at the current commit" });
  outFile = Option.String('--out', { description: 'Save the plan of --to for `roleflow apply FILE` instead of applying it (another file than --report)' });
  roles = rolesOption();
  prune = pruneOption();
  allowEmptyPrune = allowEmptyPruneOption();
  autoApprove = autoApproveOption('Apply to --to without asking');
  concurrency = applyConcurrencyOption();
  json = jsonOption('Print the result of applying as JSON on stdout');

  async execute(): Promise<number> {
    const { promote } = await import('../../run/roles/promote.js');
    const { from, to, report, roles, prune, allowEmptyPrune, autoApprove, concurrency, json } = this;
    return promote({ ...this.common, from, to, report, out: this.outFile, roles, prune, allowEmptyPrune, autoApprove, concurrency, json }, this.ports);
  }
}
