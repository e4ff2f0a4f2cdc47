import { Option } from 'clipanion';
import type { Config } from '../core/config.js';
import type { SourceDir } from '../files/source-files.js';
import type { FreshPlan } from '../run/plan.js';
import { TenantCommand } from './tenant-command.js';

/** What `plan` and `apply` share: the options that choose the role files, and a fresh plan of them. */
export abstract class PlanningCommand extends TenantCommand {
  target = Option.Array('--target', { description: 'Only the Roles with this name or glob (repeatable): a partial plan' });
  roles = Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });
  prune = Option.Boolean('--prune', { description: 'Delete remote Roles that have no role file (--no-prune overrides the config)' });
  allowEmptyPrune = Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when there are no role files at all' });

  /** Read the role files, list the tenant once, plan; `roleFiles` (arguments) join the targets. */
  protected async freshPlanOf(config: Config, roleFiles: readonly string[]): Promise<FreshPlan & { rolesDir: SourceDir }> {
    const { rolesDirOf } = await import('../files/role-files.js');
    const { makeFreshPlan } = await import('../run/plan.js');
    const rolesDir = rolesDirOf(this.context.cwd, config, this.roles);
    const fresh = await makeFreshPlan({
      cwd: this.context.cwd,
      config,
      rolesDir,
      prune: this.prune,
      allowEmptyPrune: this.allowEmptyPrune,
      open: () => this.openTenant(config),
      now: new Date(),
      targets: this.target ?? [],
      roleFiles,
    });
    return { ...fresh, rolesDir };
  }
}

/** Why `apply`'s arguments do not go together (one line), or undefined when they do. */
export function applyArgumentProblem(
  args: readonly string[],
  planFile: string | undefined,
  flags: { target: readonly string[] | undefined; roles: string | undefined; prune: boolean | undefined; allowEmptyPrune: boolean },
): string | undefined {
  const notRoleFiles = args.filter((a) => !a.endsWith('.md'));
  if (args.length > 1 && notRoleFiles.length > 0) return `apply takes one saved plan or role files (*.md), not ${notRoleFiles.join(', ')} among several`;
  if (planFile === undefined) return undefined;
  if (flags.target !== undefined) return '--target does not go with a saved plan: make a partial plan with roleflow plan --target … --out FILE';
  if (flags.roles !== undefined || flags.prune !== undefined) return '--roles and --prune do not go with a saved plan: it already says what to do';
  if (flags.allowEmptyPrune) return '--allow-empty-prune does not go with a saved plan: it already says what to do';
  return undefined;
}
