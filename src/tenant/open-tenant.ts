import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { configuredTenant, DEFAULT_TOKEN_ENV, type Config } from '../core/config/config.js';
import { RoleflowError } from '../core/errors.js';
import type { TenantClient, TenantTarget } from '../core/model.js';
import type { ClientOptions } from './exchange.js';
import { configRelative, embeddedFlowsOf } from '../files/config-file.js';
import { stateFolder } from '../files/state-folder.js';
import { safeTenantUrl } from '../core/config/url-safety.js';
import { closest } from '../core/text/schema.js';
import { proxySettings } from './proxy-env.js';

/** The name of the embedded tenant, used when no other tenant is configured. */
export const LOCAL_TENANT = 'local';

export interface TenantFlags {
  tenant?: string | undefined;
  baseUrl?: string | undefined;
  wsUrl?: string | undefined;
}

export interface OpenTenant {
  client: TenantClient;
  target: TenantTarget;
  /** The values to redact from every output: the token, and nothing else needs hiding. */
  secrets: string[];
  /**
   * Where the tenant is, as plans and reports record it: its base URL, or for the embedded tenant,
   * which listens on a new port every run, `embedded:<data file>` (so a plan saved against it can be
   * applied by a later run, and sharded reports of it merge).
   */
  location: string;
  /** The embedded tenant running a flows file of the config's own (`local.flows_config`) in place of the built-in flows: that file, as shown. */
  ownFlows?: string;
  close(): Promise<void>;
}

export interface OpenTenantOptions {
  config: Config;
  flags: TenantFlags;
  env: Record<string, string | undefined>;
  cwd: string;
  onRequest?: ClientOptions['onRequest'];
  onRetry?: ClientOptions['onRetry'];
}

/**
 * Resolve which tenant a command talks to and open a client for it. `--base-url` names an ad-hoc
 * tenant; a configured name uses its entry; `local` (the default when nothing is configured) starts
 * the embedded emulator in-process with its state under `.roleflow/` (paths in the config are
 * relative to the config file's folder).
 */
export async function openTenant(opts: OpenTenantOptions): Promise<OpenTenant> {
  const { config, flags, env } = opts;
  const name = tenantNameOf(config, flags);
  const { createClient } = await import('./client.js');

  if (isEmbedded(config, flags)) {
    const { startEmulator } = await import('../emulator/index.js');
    const dataFile = configRelative(opts.cwd, config, config.local.data);
    await stateFolder(dirname(dataFile), "the embedded tenant's folder");
    const flows = embeddedFlowsOf(opts.cwd, config);
    const emulator = await startEmulator({
      dataFile,
      token: randomBytes(24).toString('base64url'),
      ...(flows.own && { flows: flows.abs }),
    });
    const target = targetOf(LOCAL_TENANT, { baseUrl: emulator.baseUrl, wsUrl: emulator.wsUrl, limits: config.limits });
    const client = createClient({ target, token: emulator.token, ...hooks(opts) });
    return {
      client,
      target,
      secrets: [emulator.token],
      location: `embedded:${config.local.data}`,
      ...(flows.own && { ownFlows: flows.file }),
      close: async () => {
        await client.close();
        await emulator.close();
      },
    };
  }

  const configured = configuredTenant(config, name);
  if (!configured && flags.baseUrl === undefined) {
    const known = [LOCAL_TENANT, ...Object.keys(config.tenants)];
    const guess = closest(name, known);
    throw new RoleflowError(
      `unknown tenant "${name}"${config.file ? ` in ${config.file}` : ''}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}; known: ${known.join(', ')}`,
      'config',
    );
  }
  const tokenEnv = configured?.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const target = targetOf(name, {
    baseUrl: (flags.baseUrl ?? configured!.baseUrl).replace(/\/+$/, ''),
    wsUrl: flags.wsUrl ?? configured?.wsUrl,
    tokenEnv,
    limits: config.limits,
    ...(configured ? { wsAuth: configured.wsAuth, api: configured.api, timeoutMs: configured.timeoutMs, retries: configured.retries } : {}),
  });
  // Where the token would go is a configuration error for every command, before anything is sent.
  safeTenantUrl(target.baseUrl, 'http', flags.baseUrl === undefined ? `tenants.${name}.base_url` : '--base-url');
  if (target.wsUrl !== undefined) safeTenantUrl(target.wsUrl, 'ws', flags.wsUrl === undefined ? `tenants.${name}.ws_url` : '--ws-url');
  const token = env[tokenEnv];
  if (!token) throw new RoleflowError(`tenant "${name}": no token; set the environment variable ${tokenEnv}`);
  // The embedded tenant is in this process: never reached through a proxy.
  const proxy = proxySettings(env);
  const client = createClient({ target, token, ...hooks(opts), ...(proxy && { proxy }) });
  return { client, target, secrets: [token], location: target.baseUrl, close: () => client.close() };
}

/**
 * The tenant a command talks to: `--tenant`, else the config's default, else `local`. A
 * `--base-url` without `--tenant` is a tenant of its own, `custom`, unless the default is a
 * configured tenant (whose URL it then replaces): never the embedded tenant, which has no URL.
 */
export function tenantNameOf(config: Config, flags: TenantFlags): string {
  if (flags.tenant !== undefined) return flags.tenant;
  const named = config.defaultTenant ?? LOCAL_TENANT;
  if (flags.baseUrl && named === LOCAL_TENANT && configuredTenant(config, LOCAL_TENANT) === undefined) return 'custom';
  return named;
}

/** Whether these flags and config mean the embedded tenant, started in-process. */
export function isEmbedded(config: Config, flags: TenantFlags): boolean {
  return flags.baseUrl === undefined && tenantNameOf(config, flags) === LOCAL_TENANT && configuredTenant(config, LOCAL_TENANT) === undefined;
}

function targetOf(name: string, t: Partial<TenantTarget> & { baseUrl: string; wsUrl?: string | undefined }): TenantTarget {
  return {
    name,
    baseUrl: t.baseUrl,
    ...(t.wsUrl === undefined ? {} : { wsUrl: t.wsUrl }),
    wsAuth: t.wsAuth ?? 'header',
    api: t.api ?? {},
    timeoutMs: t.timeoutMs ?? 30_000,
    retries: t.retries ?? 4,
    ...(t.tokenEnv === undefined ? {} : { tokenEnv: t.tokenEnv }),
    ...(t.limits === undefined ? {} : { limits: t.limits }),
  };
}

function hooks(opts: OpenTenantOptions): Pick<ClientOptions, 'onRequest' | 'onRetry'> {
  return { ...(opts.onRequest ? { onRequest: opts.onRequest } : {}), ...(opts.onRetry ? { onRetry: opts.onRetry } : {}) };
}
