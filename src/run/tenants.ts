import type { Config } from '../core/config/config.js';
import { RoleflowError } from '../core/errors.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { Ports } from './ports.js';

/** `--tenant` (repeatable), `--base-url` and `--ws-url`: which tenant a verb talks to. */
export interface TenantOptions {
  tenants?: readonly string[] | undefined;
  baseUrl?: string | undefined;
  wsUrl?: string | undefined;
}

/** `--all-tenants` beside the tenant options: `plan`, `apply` and `test` run over several. */
export interface ManyTenantsOptions extends TenantOptions {
  allTenants?: boolean;
}

/**
 * The one tenant `--tenant` names, else `ROLEFLOW_TENANT`; undefined for the config's default.
 * `verb` names the command in the error of `--tenant` given several times.
 */
export function oneTenant(options: TenantOptions, ports: Pick<Ports, 'env'>, verb: string): string | undefined {
  const named = options.tenants ?? [];
  if (new Set(named).size > 1) throw new RoleflowError(`--tenant is given ${named.length} times: roleflow ${verb} works on one tenant`, 'usage');
  return named[0] ?? (ports.env['ROLEFLOW_TENANT'] || undefined);
}

/** Open `name` (default: the tenant the options name), with `--base-url` and `--ws-url`. */
export function openOneTenant(ports: Ports, config: Config, options: TenantOptions, verb: string, name?: string): Promise<OpenTenant> {
  return ports.openTenant(config, { tenant: name ?? oneTenant(options, ports, verb), baseUrl: options.baseUrl, wsUrl: options.wsUrl });
}

/**
 * The tenants of a run over several (`--all-tenants`, or `--tenant` more than once), checked
 * against the config; undefined for a run over one tenant.
 */
export async function severalTenants(config: Config, options: ManyTenantsOptions): Promise<string[] | undefined> {
  const named = options.tenants ?? [];
  if (options.allTenants !== true && named.length <= 1) return undefined;
  if (options.baseUrl !== undefined || options.wsUrl !== undefined) {
    throw new RoleflowError('--base-url and --ws-url override one tenant: not with several (--all-tenants, --tenant more than once)', 'usage');
  }
  const { selectTenants } = await import('../core/tenants/index.js');
  return selectTenants(config, { named, all: options.allTenants === true });
}

/**
 * Every tenant of a run over several opened, in order, before anything is sent to any: an unknown
 * tenant, a missing token or an unsafe URL stops the run here (the ones opened are closed).
 * Opening a configured tenant sends nothing.
 */
export async function openTenants(ports: Ports, config: Config, names: readonly string[]): Promise<OpenTenant[]> {
  const opened: OpenTenant[] = [];
  try {
    for (const name of names) opened.push(await ports.openTenant(config, { tenant: name }, { named: true }));
  } catch (error) {
    for (const tenant of opened) await tenant.close().catch(() => undefined);
    throw error;
  }
  return opened;
}
