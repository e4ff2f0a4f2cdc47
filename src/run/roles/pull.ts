import { tenantVars } from '../../core/config/config.js';
import { secretScanner } from '../../core/config/policy/index.js';
import { planBaseUrl } from '../../core/plan/index.js';
import { quote, showName } from '../../core/roles/index.js';
import { rolesDirOf } from '../../files/role-files.js';
import { planTenantOf } from './fresh-plan.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { openOneTenant, type TenantOptions } from '../tenants.js';
import { pullRoles, type PullResult } from './pull-roles.js';
import { safeText } from '../../core/text/safe-text.js';

export interface PullOptions extends CommonOptions, TenantOptions {
  /** `--roles DIR`, when not the config's folder. */
  roles?: string | undefined;
  force: boolean;
  json: boolean;
  /** `--target NAME_OR_GLOB`: only these Roles (and their files). */
  targets?: readonly string[] | undefined;
}

/**
 * `roleflow pull`: the tenant's Roles written as role files (see `pullRoles`), a line per file
 * written, a warning per Role skipped, then the totals (`--json`: one document).
 */
export async function pull(options: PullOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  const config = await configOf(options, ports);
  const dir = rolesDirOf(ports.cwd, config, options.roles);
  const tenant = await openOneTenant(ports, config, options, 'pull');
  let result: PullResult;
  try {
    const remote = await tenant.client.listRoles();
    const name = tenant.target.name;
    result = await pullRoles({ cwd: ports.cwd, dir, remote, ignore: config.roles.ignore, force: options.force, tenant: name, vars: tenantVars(config, name), secrets: secretScanner(ports.env, config), ...(options.targets && { targets: options.targets }) });
  } finally {
    await tenant.close();
  }
  const label = planTenantOf(tenant);
  const count = (status: string): number => result.roles.filter((r) => r.status === status).length;
  const written = count('written') + count('overwritten');
  for (const r of result.roles) {
    const what = `${showName(r.name)} (id ${showName(r.id)})`;
    if (r.status === 'skipped') output.err(`warning: skipped ${r.file === undefined ? '' : `${safeText(r.file)}, `}Role ${what}: ${r.reason ?? ''}`);
    else if (!options.json && r.status !== 'unchanged') output.out(`${r.status === 'written' ? '+ wrote' : '~ overwrote'} ${safeText(r.file ?? '')}: ${what}`);
  }
  for (const { name, count } of result.sharedNames) output.err(`warning: the tenant holds ${count} Roles named ${showName(name)} (pinned by id in the files)`);
  for (const a of result.ambiguous) output.err(`warning: ${safeText(a.file)} has no id and ${a.count} Roles are named ${showName(a.name)}: add "id:" to pin the one it manages`);
  if (options.json) {
    output.json({
      format_version: 1,
      tenant: { name: label.name, base_url: planBaseUrl(label.baseUrl) },
      dir: dir.display,
      summary: { written, unchanged: count('unchanged'), skipped: count('skipped') },
      roles: result.roles,
      local_only: result.localOnly,
      not_for_tenant: result.notForTenant,
    });
    return ExitCode.Ok;
  }
  if (result.localOnly.length > 0) output.out(`${result.localOnly.length} role file(s) whose Role is not on the tenant were left alone: ${result.localOnly.map(safeText).join(', ')}`);
  if (result.notForTenant.length > 0) {
    output.out(`${result.notForTenant.length} role file(s) not for tenant ${quote(label.name)} (their tenants: does not name it) were left alone: ${result.notForTenant.map(safeText).join(', ')}`);
  }
  const pulled = result.roles.length;
  output.out(`Pulled ${pulled} Role${pulled === 1 ? '' : 's'} from tenant ${showName(label.name)} into ${safeText(dir.display)}/: ${written} written, ${count('unchanged')} unchanged, ${count('skipped')} skipped.`);
  return ExitCode.Ok;
}
