import type { Result } from '../errors.js';
import { parseDuration } from '../flows/duration.js';
import { parseJudges, type JudgeConfig, type RawJudge } from '../flows/judges/config.js';
import { DEFAULT_LIMITS, parseByteSize, type Limits } from './limits.js';
import type { ApiForms } from '../model.js';
import { parsePolicy, type RawPolicy } from './policy/parse.js';
import { emptyPolicy, type Policy } from './policy/types.js';
import { mergeVars, VAR_NAME, type TenantVars } from '../roles/vars.js';
import { validateAgainst } from '../text/schema.js';
import { checkTenantUrl, SCHEMES, type TenantUrlKind } from './url-safety.js';
import { parseYaml } from '../text/yaml-source.js';

/** `roleflow.config.yaml`, validated and with every default filled in. */
export interface Config {
  /** The file it came from; undefined when there is none. */
  file?: string;
  defaultTenant?: string;
  /** Top-level `vars`: every tenant's, the embedded `local` included; a tenant's own win. */
  vars: Record<string, string>;
  tenants: Record<string, TenantConfig>;
  roles: { dir: string; prune: boolean; protect: string[]; ignore: string[]; maxDeletes?: number; allowEmptyPrune?: boolean; concurrency: number };
  flows: { dir: string; concurrency: number; strictEnd: boolean };
  local: { flowsConfig?: string; data: string; preview: boolean };
  preview: { maxExecutions: number };
  /** `policy:` (lint, validate, plan, apply, promote); empty when absent. */
  policy: Policy;
  /** `judges:` by name, for `judge:` assertions. */
  judges: Record<string, JudgeConfig>;
  /** How much is read from a tenant (`limits:`; config/limits.ts). */
  limits: Limits;
  /** The apply journal: where it is kept, and (in the tenant) how many records. */
  history: { store: 'file' | 'tenant'; keep: number };
  drift: { ignore: string[] };
}

export interface TenantConfig {
  baseUrl: string;
  wsUrl?: string;
  tokenEnv: string;
  wsAuth: 'header' | 'query';
  timeoutMs: number;
  retries: number;
  api: ApiForms;
  /** This tenant's own `vars`, which win over the top-level ones. */
  vars?: Record<string, string>;
  /** Set aside for `roleflow preview`, which applies other Roles to it and prunes. */
  preview?: true;
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
  vars?: Record<string, string>;
  preview?: boolean;
}
interface RawConfig {
  default_tenant?: string;
  vars?: Record<string, string>;
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
  local?: { flows_config?: string; data?: string; preview?: boolean };
  preview?: { max_executions?: number };
  policy?: RawPolicy;
  judges?: Record<string, RawJudge>;
  limits?: { max_response_bytes?: number | string; max_messages?: number; max_execution_bytes?: number | string };
  history?: { store?: 'file' | 'tenant'; keep?: number };
  drift?: { ignore?: string[] };
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
  const policy = parsePolicy(raw.policy);
  const judges = parseJudges(raw.judges);
  const issues = [
    ...policy.issues,
    ...judges.issues,
    ...varNameIssues(raw.vars, '/vars', 'vars'),
    ...Object.entries(raw.tenants ?? {}).flatMap(([name, t]) => [...varNameIssues(t.vars, `/tenants/${pointerKey(name)}/vars`, `tenants.${name}.vars`), ...tenantIssues(name, t)]),
    ...limitIssues(raw.limits),
  ];
  if (defaultTenant !== undefined && defaultTenant !== 'local' && !Object.hasOwn(raw.tenants ?? {}, defaultTenant)) {
    issues.unshift({ pointer: '/default_tenant', message: `default_tenant: no tenant named "${defaultTenant}" under tenants` });
  }
  if (issues.length > 0) {
    const located = issues.map(({ pointer, message }) => ({ file, ...source.value.locate(pointer), message }));
    return { ok: false, issues: located.sort((a, b) => a.line - b.line || a.col - b.col) };
  }
  const base = defaultConfig(file);
  return {
    ok: true,
    value: {
      file,
      ...(defaultTenant === undefined ? {} : { defaultTenant }),
      vars: raw.vars ?? {},
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
        preview: raw.local?.preview ?? false,
      },
      preview: { maxExecutions: raw.preview?.max_executions ?? base.preview.maxExecutions },
      policy: policy.policy,
      judges: judges.judges,
      limits: limitsOf(raw.limits),
      history: { store: raw.history?.store ?? base.history.store, keep: raw.history?.keep ?? base.history.keep },
      drift: { ignore: raw.drift?.ignore ?? [] },
    },
  };
}

export function defaultConfig(file?: string): Config {
  return {
    ...(file === undefined ? {} : { file }),
    vars: {},
    tenants: {},
    roles: { dir: 'roles', prune: false, protect: [], ignore: [], concurrency: 4 },
    flows: { dir: 'flows', concurrency: 4, strictEnd: false },
    local: { data: '.roleflow/local.json', preview: false },
    preview: { maxExecutions: 500 },
    policy: emptyPolicy(),
    judges: {},
    limits: DEFAULT_LIMITS,
    history: { store: 'file', keep: 200 },
    drift: { ignore: [] },
  };
}

/** The configured tenant of that name; never an inherited member (`constructor`, `toString`). */
export function configuredTenant(config: Config, name: string): TenantConfig | undefined {
  return Object.hasOwn(config.tenants, name) ? config.tenants[name] : undefined;
}

/**
 * The variables role files see on tenant `name`: the top-level `vars`, then the tenant's own. A
 * name that is not configured (the embedded `local`, an ad-hoc `--base-url` tenant) gets the
 * top-level ones.
 */
export function tenantVars(config: Config, name: string): TenantVars {
  return mergeVars(config.vars, configuredTenant(config, name)?.vars);
}

/** Names role files could not write as `${vars.NAME}`: one problem each, at its value. */
function varNameIssues(vars: Record<string, string> | undefined, at: string, path: string): { pointer: string; message: string }[] {
  return Object.keys(vars ?? {})
    .filter((name) => !VAR_NAME.test(name))
    .map((name) => ({ pointer: `${at}/${pointerKey(name)}`, message: `${path}: ${JSON.stringify(name)} is not a variable name: letters, digits and _, not starting with a digit` }));
}

function pointerKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The byte sizes of `limits:` that are not a size (the schema checks the type). */
function limitIssues(raw: RawConfig['limits']): { pointer: string; message: string }[] {
  return (['max_response_bytes', 'max_execution_bytes'] as const)
    .filter((key) => raw?.[key] !== undefined && parseByteSize(raw[key]) === undefined)
    .map((key) => ({ pointer: `/limits/${key}`, message: `limits.${key}: ${JSON.stringify(raw![key])} is not a size: write bytes, or a number with KB, KiB, MB, MiB, GB or GiB, like 64MiB` }));
}

function limitsOf(raw: RawConfig['limits']): Limits {
  const size = (value: number | string | undefined, fallback: number) => (value === undefined ? fallback : (parseByteSize(value) ?? fallback));
  return {
    maxResponseBytes: size(raw?.max_response_bytes, DEFAULT_LIMITS.maxResponseBytes),
    maxMessages: raw?.max_messages ?? DEFAULT_LIMITS.maxMessages,
    maxExecutionBytes: size(raw?.max_execution_bytes, DEFAULT_LIMITS.maxExecutionBytes),
  };
}

/** What the schema cannot say about one tenant, as problems at JSON pointers. */
function tenantIssues(name: string, t: RawTenant): { pointer: string; message: string }[] {
  const at = `/tenants/${name}`;
  const issues: { pointer: string; message: string }[] = [];
  if (t.timeout !== undefined) {
    const timeout = parseDuration(t.timeout);
    if (!timeout.ok) issues.push({ pointer: `${at}/timeout`, message: `tenants.${name}.timeout: ${timeout.error}` });
    // "0" reads like "no timeout", but would end every request before it starts.
    else if (Math.round(timeout.value) === 0) issues.push({ pointer: `${at}/timeout`, message: `tenants.${name}.timeout: must be more than 0` });
  }
  for (const [key, kind] of [['base_url', 'http'], ['ws_url', 'ws']] as const) {
    const raw = t[key];
    const problem = raw === undefined ? undefined : urlProblem(raw, kind);
    if (problem !== undefined) issues.push({ pointer: `${at}/${key}`, message: `tenants.${name}.${key}: ${problem}` });
  }
  return issues;
}

/** Why the token may not go to this URL, in words; undefined when it may. */
function urlProblem(raw: string, kind: TenantUrlKind): string | undefined {
  const checked = checkTenantUrl(raw, kind);
  if (checked.ok) return undefined;
  const { secure, plain } = SCHEMES[kind];
  if (checked.problem === 'invalid') return 'not a valid URL';
  if (checked.problem === 'scheme') return `must be a ${secure}// URL`;
  return `plain ${plain}// would send the token unencrypted: it is only allowed to loopback (localhost, 127.0.0.1, ::1); use ${secure}//`;
}

function tenantConfig(t: RawTenant): TenantConfig {
  const timeout = t.timeout === undefined ? undefined : parseDuration(t.timeout);
  return {
    baseUrl: t.base_url.replace(/\/+$/, ''),
    ...(t.ws_url === undefined ? {} : { wsUrl: t.ws_url }),
    tokenEnv: t.token_env ?? DEFAULT_TOKEN_ENV,
    wsAuth: t.ws_auth ?? 'header',
    timeoutMs: timeout?.ok ? Math.round(timeout.value) : 30_000,
    retries: t.retries ?? 4,
    api: t.api ?? {},
    ...(t.vars === undefined ? {} : { vars: t.vars }),
    ...(t.preview === true && { preview: true as const }),
  };
}
