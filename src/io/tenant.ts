import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { DEFAULT_TOKEN_ENV, type Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import type { TenantClient, TenantTarget } from '../core/model.js';

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
  close(): Promise<void>;
}

export interface OpenTenantOptions {
  config: Config;
  flags: TenantFlags;
  env: Record<string, string | undefined>;
  cwd: string;
  onRequest?: Parameters<typeof import('./client.js').createClient>[0]['onRequest'];
}

/**
 * Resolve which tenant a command talks to and open a client for it. `--base-url` names an ad-hoc
 * tenant; a configured name uses its entry; `local` (the default when nothing is configured) starts
 * the embedded emulator in-process with its state under `.roleflow/`.
 */
export async function openTenant(opts: OpenTenantOptions): Promise<OpenTenant> {
  const { config, flags, env } = opts;
  const name = flags.tenant ?? config.defaultTenant ?? (flags.baseUrl ? 'custom' : LOCAL_TENANT);
  const { createClient } = await import('./client.js');

  if (flags.baseUrl === undefined && name === LOCAL_TENANT && !config.tenants[LOCAL_TENANT]) {
    const { startEmulator } = await import('../emulator/index.js');
    const dataFile = resolve(opts.cwd, config.local.data);
    await mkdir(dirname(dataFile), { recursive: true });
    const emulator = await startEmulator({
      dataFile,
      token: randomBytes(24).toString('base64url'),
      ...(config.local.flowsConfig === undefined ? {} : { flows: resolve(opts.cwd, config.local.flowsConfig) }),
    });
    const target = targetOf(LOCAL_TENANT, { baseUrl: emulator.baseUrl, wsUrl: emulator.wsUrl });
    const client = createClient({ target, token: emulator.token, ...onRequest(opts) });
    return {
      client,
      target,
      secrets: [emulator.token],
      close: async () => {
        await client.close();
        await emulator.close();
      },
    };
  }

  const configured = config.tenants[name];
  if (!configured && flags.baseUrl === undefined) {
    const known = Object.keys(config.tenants);
    throw new RoleflowError(
      `unknown tenant "${name}"${config.file ? ` in ${config.file}` : ''}; known: ${[LOCAL_TENANT, ...known].join(', ')}`,
    );
  }
  const tokenEnv = configured?.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const token = env[tokenEnv];
  if (!token) throw new RoleflowError(`tenant "${name}": no token; set the environment variable ${tokenEnv}`);
  const target = targetOf(name, {
    baseUrl: (flags.baseUrl ?? configured!.baseUrl).replace(/\/+$/, ''),
    wsUrl: flags.wsUrl ?? configured?.wsUrl,
    ...(configured ? { wsAuth: configured.wsAuth, api: configured.api, timeoutMs: configured.timeoutMs, retries: configured.retries } : {}),
  });
  const client = createClient({ target, token, ...onRequest(opts) });
  return { client, target, secrets: [token], close: () => client.close() };
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
  };
}

function onRequest(opts: OpenTenantOptions): Pick<OpenTenantOptions, 'onRequest'> {
  return opts.onRequest ? { onRequest: opts.onRequest } : {};
}
