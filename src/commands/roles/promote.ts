import { resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { Plan } from '../../core/plan/index.js';
import { approveFreshPlans, carryOutPlan, ended, printApplyJson, type ApplyFlags } from './applying.js';
import { freshPlanFor } from './planning.js';
import { TenantAccessCommand } from '../tenant-command.js';

export class PromoteCommand extends TenantAccessCommand {
  static override paths = [['promote']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Apply the role files to a tenant once they passed the flow tests on another',
    details: `
      Test-gated promotion from tenant \`--from\` (say staging) to tenant \`--to\` (say production).
      Nothing is sent to \`--to\` unless all of this holds; otherwise it exits 4 and names every
      reason at once. First, \`--from\` matches the role files: its fresh plan has no change (apply
      there first). Second, \`--report FILE\` is a JSON test report (\`roleflow test --reporter
      json=FILE\`, or a \`roleflow report merge\` of its shards) of tenant \`--from\`, of the whole
      suite, with no failed or errored test and at least one passed (skips alone checked nothing):
      the report records what its run was asked for, and a
      run narrowed by PATH arguments (narrower than the flows folder), \`--grep\` or \`--transport\`
      is refused, naming the filter; so is one shard alone, a shard missing, an interrupted run, or
      tests \`--bail\` left unrun. The complete shards of a whole run, merged, pass.
      Third, the report was recorded at the current commit: its \`commit\` (\`$GITHUB_SHA\` when it
      is a full sha, else \`git rev-parse HEAD\` where the tests ran) is the one here, found the
      same way; a report without one is refused, and so is a \`$GITHUB_SHA\` that is not the commit
      checked out (in a git checkout: the files here are HEAD's). Fourth, in a git checkout, the role files, the flow
      tests and the config have no uncommitted change (staged, unstaged or untracked and not
      ignored), no file roleflow reads (role files, flow tests, the config) is ignored by git, and
      none lies outside the checkout: "at this commit" means the files here are the commit (outside a checkout, with
      \`$GITHUB_SHA\` set, this is not checked). \`--from local\`, the embedded tenant, is refused:
      it is a stand-in started for each command, and its tests cannot gate a real tenant.

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
  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  prune = Option.Boolean('--prune', { description: 'Delete remote Roles that have no role file (--no-prune overrides the config)' });
  allowEmptyPrune = Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when there are no role files at all' });
  autoApprove = Option.Boolean('--auto-approve', false, { description: 'Apply to --to without asking' });
  concurrency = Option.String('--concurrency', {
    description: 'Requests at once (default: roles.concurrency of the config, else 4)',
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 64)]),
  });
  json = Option.Boolean('--json', false, { description: 'Print the result of applying as JSON on stdout' });

  async execute(): Promise<number> {
    if (this.from === this.to) throw new RoleflowError(`--from and --to are both ${this.from}: promotion is from one tenant to another`, 'usage');
    if (this.outFile === '-') throw new RoleflowError('--out -: a saved plan must be a file', 'usage');
    if (this.outFile !== undefined && resolve(this.context.cwd, this.outFile) === resolve(this.context.cwd, this.report)) {
      throw new RoleflowError(`--out ${this.outFile} is the --report file: the plan would overwrite the report; save the plan to another file`, 'usage');
    }
    const config = await this.loadConfig();
    const { selectTenants } = await import('../../core/tenants/index.js');
    selectTenants(config, { named: [this.from, this.to], all: false });
    const selection = { roles: this.roles, prune: this.prune, allowEmptyPrune: this.allowEmptyPrune, targets: [], roleFiles: [] };
    const { isTenantFailure, tenantError } = await import('../../core/tenants/index.js');
    // Both tenants' config and token before anything is sent to either.
    const [from, to] = await this.openTenants(config, [this.from, this.to]);
    // Two tenants in one command: an error of either names it (`tenant "staging": cannot reach …`).
    const planOf = (name: string) =>
      freshPlanFor(this, config, selection, () => Promise.resolve(name === this.from ? from! : to!)).catch((error: unknown) => {
        throw isTenantFailure(error) ? tenantError(name, error) : error;
      });

    const { promotionRefusals } = await import('../../run/tenants/promote.js');
    const reasons = await promotionRefusals({
      cwd: this.context.cwd,
      env: this.context.env,
      config,
      from: this.from,
      to: this.to,
      roles: this.roles,
      reportFile: this.report,
      planFrom: () => planOf(this.from),
      warn: (line) => this.io.err(line),
    });
    if (reasons.length > 0) {
      this.io.err([`error: promotion from ${this.from} to ${this.to} refused; nothing was sent to ${this.to}:`, ...reasons.map((r) => `  - ${r}`)].join('\n'));
      const baseUrl = config.tenants[this.to]?.baseUrl ?? `embedded:${config.local.data}`;
      if (this.json) await printApplyJson(this, [ended(ExitCode.Refused, { tenant: { name: this.to, base_url: baseUrl } }, 'refused', [], reasons)], undefined);
      return ExitCode.Refused;
    }

    const { renderPlanText } = await import('../../core/plan/index.js');
    const fresh = await planOf(this.to);
    const { plan, rolesDir } = fresh;
    if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
    this.io.err(`Promoting from ${this.from} to ${this.to}: ${this.from} matches the role files, and ${this.report} passed there at this commit.`);
    const shown = renderPlanText(plan, { color: this.colorFor(this.json ? 'stderr' : 'stdout'), rolesDir: `${rolesDir.display}/` });
    if (this.outFile !== undefined) return this.savePlan(shown, plan);
    // A plan saved by `plan --out` would skip the gate: the promotion's own plan is saved by promote.
    const { showName } = await import('../../core/roles/index.js');
    const saveAndApply = `roleflow promote --from ${showName(this.from)} --to ${showName(this.to)} --report ${showName(this.report)} --out plan.json && roleflow apply plan.json`;
    const flags: ApplyFlags = { json: this.json, autoApprove: this.autoApprove, concurrency: this.concurrency ?? config.roles.concurrency, protect: config.roles.protect, saveAndApply, journal: { config, command: 'promote' } };
    const approved = await approveFreshPlans(this, [plan], shown, flags);
    const ends = approved === 'approved' || approved[0]?.status === 'no_changes' ? [await carryOutPlan(this, plan, fresh.tenant, flags, false, fresh.remote)] : approved;
    if (this.json) await printApplyJson(this, ends, undefined);
    return ends[0]!.code;
  }

  /** `--out`: the plan of `--to` shown and saved, as `plan --out` does (not when guards refuse it). */
  private async savePlan(shown: string, plan: Plan): Promise<number> {
    this.io.out(shown);
    if (plan.guards.length > 0) {
      this.io.err([...plan.guards.map((g) => `error: ${g.message}`), `The plan was not saved to ${this.outFile}: guards refuse it.`].join('\n'));
      return ExitCode.Refused;
    }
    const { savePlan } = await import('../../files/plan-file.js');
    await savePlan(resolve(this.context.cwd, this.outFile!), plan);
    this.io.err(`Saved the plan of ${this.to} to ${this.outFile}. To carry out exactly this plan: roleflow apply ${this.outFile}`);
    return ExitCode.Ok;
  }
}
