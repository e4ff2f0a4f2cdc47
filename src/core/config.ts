import type { Result } from './errors.js';
import type { ApiForms } from './model.js';
import { validateAgainst } from './schema.js';
import { parseYaml } from './yaml-source.js';

/** `roleflow.config.yaml`, validated and with every default filled in. */
export interface Config {
  /** The file it came from; undefined when there is none. */
  file?: string;
  defaultTenant?: string;
  tenants: Record<string, TenantConfig>;
  roles: { dir: string; prune: boolean; protect: string[]; ignore: string[]; maxDeletes?: number; allowEmptyPrune?: boolean; concurrency: number };
  flows: { dir: string; concurrency: number; strictEnd: boolean };
  local: { flowsConfig?: string; data: string };
}

export interface TenantConfig {
  baseUrl: string;
  wsUrl?: string;
  tokenEnv: string;
  wsAuth: 'header' | 'query';
  timeoutMs: number;
  retries: number;
  api: ApiForms;
}

export const DEFAULT_TOKEN_ENV = 'ROLEFLOW_TOKEN';

interface RawTenant {
  base_url: string;
  ws_url?: string;
  token_env?: string;
  ws_auth?: 'header' | 'query';
  timeout?: string;
  retries?: number;
  api?: ApiForms;
}
interface RawConfig {
  default_tenant?: string;
  tenants?: Record<string, RawTenant>;
  roles?: {
    dir?: string;
    prune?: boolean;
    protect?: string[];
    ignore?: string[];
    max_deletes?: number;
    allow_empty_prune?: boolean;
    concurrency?: number;
  };
  flows?: { dir?: string; concurrency?: number; strict_end?: boolean };
  local?: { flows_config?: string; data?: string };
}

/** Parse and validate config text; issues name the file, line and key. */
export function parseConfig(text: string, file: string, schema: object): Result<Config> {
  const source = parseYaml(text, { file });
  if (!source.ok) return source;
  // An empty file is a valid, empty config.
  if (source.value.value === null || source.value.value === undefined) return { ok: true, value: defaultConfig(file) };
  const valid = validateAgainst<RawConfig>(schema, source.value, file);
  if (!valid.ok) return valid;
  const raw = valid.value;
  const defaultTenant = raw.default_tenant;
  if (defaultTenant !== undefined && defaultTenant !== 'local' && !raw.tenants?.[defaultTenant]) {
    const pos = source.value.locate('/default_tenant');
    return { ok: false, issues: [{ file, ...pos, message: `default_tenant: no tenant named "${defaultTenant}" under tenants` }] };
  }
  // "0" reads like "no timeout", but would end every request before it starts.
  const zero = Object.entries(raw.tenants ?? {}).find(([, t]) => t.timeout !== undefined && durationMs(t.timeout) === 0);
  if (zero) {
    const pos = source.value.locate(`/tenants/${zero[0]}/timeout`);
    return { ok: false, issues: [{ file, ...pos, message: `tenants.${zero[0]}.timeout: must be more than 0` }] };
  }
  const base = defaultConfig(file);
  return {
    ok: true,
    value: {
      file,
      ...(defaultTenant === undefined ? {} : { defaultTenant }),
      tenants: Object.fromEntries(Object.entries(raw.tenants ?? {}).map(([name, t]) => [name, tenantConfig(t)])),
      roles: {
        dir: raw.roles?.dir ?? base.roles.dir,
        prune: raw.roles?.prune ?? false,
        protect: raw.roles?.protect ?? [],
        ignore: raw.roles?.ignore ?? [],
        ...(raw.roles?.max_deletes === undefined ? {} : { maxDeletes: raw.roles.max_deletes }),
        ...(raw.roles?.allow_empty_prune === undefined ? {} : { allowEmptyPrune: raw.roles.allow_empty_prune }),
        concurrency: raw.roles?.concurrency ?? base.roles.concurrency,
      },
      flows: {
        dir: raw.flows?.dir ?? base.flows.dir,
        concurrency: raw.flows?.concurrency ?? base.flows.concurrency,
        strictEnd: raw.flows?.strict_end ?? base.flows.strictEnd,
      },
      local: {
        ...(raw.local?.flows_config === undefined ? {} : { flowsConfig: raw.local.flows_config }),
        data: raw.local?.data ?? base.local.data,
      },
    },
  };
}

export function defaultConfig(file?: string): Config {
  return {
    ...(file === undefined ? {} : { file }),
    tenants: {},
    roles: { dir: 'roles', prune: false, protect: [], ignore: [], concurrency: 4 },
    flows: { dir: 'flows', concurrency: 4, strictEnd: false },
    local: { data: '.roleflow/local.json' },
  };
}

function tenantConfig(t: RawTenant): TenantConfig {
  return {
    baseUrl: t.base_url.replace(/\/+$/, ''),
    ...(t.ws_url === undefined ? {} : { wsUrl: t.ws_url }),
    tokenEnv: t.token_env ?? DEFAULT_TOKEN_ENV,
    wsAuth: t.ws_auth ?? 'header',
    timeoutMs: t.timeout === undefined ? 30_000 : durationMs(t.timeout),
    retries: t.retries ?? 4,
    api: t.api ?? {},
  };
}

// The schema already guarantees the shape `<number><unit?>`; a bare number is milliseconds.
function durationMs(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(text)!;
  const n = Number(m[1]);
  return Math.round(m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n);
}
