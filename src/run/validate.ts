import { configuredTenant, tenantVars, type Config } from '../core/config/config.js';
import { formatIssue, RoleflowError, type Issue } from '../core/errors.js';
import { shortLeakRoles, unknownLeakRoles, type FlowTestFile } from '../core/flows/index.js';
import { quietEndedWsTests, transportWarnings, type TenantTransports } from '../core/runs/index.js';
import { pushAll } from '../core/text/lists.js';
import { safeText } from '../core/text/safe-text.js';
import { isFlowFileName, isJudgesFolder, loadFlowTestFiles } from '../files/flows/flow-files.js';
import { filesForTenant, roleFilesForTenant, unmatchedTenantWarnings, varIssuesOfTenants, type RoleFile, type TenantVars } from '../core/roles/index.js';
import { loadRoleFiles, strayRoleFiles } from '../files/role-files.js';
import { renderedSecretIssues, roleSecretIssues, secretScanner, type SecretScanner } from '../core/config/policy/index.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from './ports.js';
import { dirExists, listFilesUnder, type SourceDir } from '../files/source-files.js';
import { embeddedFlowsOf, type EmbeddedFlowsFile } from '../files/config-file.js';
import { flowsDirOf } from '../files/flows/flow-files.js';
import { rolesDirOf } from '../files/role-files.js';
import { embeddedFlowRoleIssues } from './embedded-flow-roles.js';

export interface ValidateOptions extends CommonOptions {
  /** `--roles DIR`, `--flows DIR`: the folders, when not the config's. */
  roles?: string | undefined;
  flows?: string | undefined;
  json: boolean;
}

/**
 * `roleflow validate`: every role file and flow test, offline. Role files are rendered for every
 * configured tenant, and for the embedded one when it is in use (no tenants configured, or
 * default_tenant: local); its flows' Roles must be in the role files. Warnings on stderr never
 * change the exit code: 0 valid, 1 not.
 */
export async function validate(options: ValidateOptions, ports: Ports): Promise<number> {
  const { cwd, output } = ports;
  const config = await configOf(options, ports);
  const tenants = tenantsOfConfig(config);
  const embedded = tenants.some((t) => t.name === 'local') || config.local.flowsConfig !== undefined ? embeddedFlowsOf(cwd, config) : undefined;
  const result = await validateSources(cwd, rolesDirOf(cwd, config, options.roles), flowsDirOf(cwd, config, options.flows), {
    strictEnd: config.flows.strictEnd,
    tenants,
    testTenant: testTenantOf(config, ports.env),
    ...(embedded && { embeddedFlows: embedded }),
    secrets: secretScanner(ports.env, config),
  });
  const valid = result.issues.length === 0;
  // On stderr whatever the format: warnings change neither the exit code nor the JSON.
  if (result.warnings.length > 0) output.err(result.warnings.map(formatIssue).join('\n'));
  if (options.json) {
    output.json({ format_version: 1, valid, role_files: result.roleFiles, flow_files: result.flowFiles, not_found: result.absent, issues: result.issues });
  } else if (!valid) {
    output.err(result.issues.map(formatIssue).join('\n'));
  } else {
    for (const dir of result.absent) output.err(`note: ${safeText(dir)}/ not found, nothing checked there`);
    output.out(`${count(result.roleFiles, 'role file')} and ${count(result.flowFiles, 'flow test file')} are valid.`);
  }
  return valid ? ExitCode.Ok : ExitCode.Error;
}

/** The tenants role files are rendered for: the configured ones, and `local` when it is in use (no tenant configured, or the default). */
export function tenantsOfConfig(config: Config): { name: string; vars: TenantVars }[] {
  const configured = Object.keys(config.tenants);
  const usesLocal = configured.length === 0 || config.defaultTenant === 'local';
  return [...new Set([...(usesLocal ? ['local'] : []), ...configured])].map((name) => ({ name, vars: tenantVars(config, name) }));
}

export interface Validation {
  roleFiles: number;
  flowFiles: number;
  issues: Issue[];
  /** Not errors: the exit code stays what `issues` make it. */
  warnings: Issue[];
  /** Default folders that do not exist, so were not checked. */
  absent: string[];
}

/**
 * `validate`: every role file and flow test file, offline. A folder named by a flag or the config
 * must exist; a default one that does not is only reported, as long as one of the two exists.
 */
export async function validateSources(
  cwd: string,
  roles: SourceDir,
  flows: SourceDir,
  options: {
    strictEnd: boolean;
    /** Every tenant role files are rendered for, with its variables. */
    tenants?: readonly { name: string; vars: TenantVars }[];
    /** What a secret looks like (`secretScanner`): a Role holding one is an error. Default: the key formats. */
    secrets?: SecretScanner;
    /** The tenant `test` would run on (undefined: not known): tests that would be skipped there are warned of. */
    testTenant?: TenantTransports | undefined;
    /** The embedded tenant's flows file, when it is in use: the Roles its flows name must be in the role files. */
    embeddedFlows?: EmbeddedFlowsFile;
  },
): Promise<Validation> {
  const result: Validation = { roleFiles: 0, flowFiles: 0, issues: [], warnings: [], absent: [] };
  const present = async (dir: SourceDir, what: string): Promise<boolean> => {
    if (await dirExists(dir)) return true;
    if (dir.explicit) throw new RoleflowError(`${what} folder ${dir.display} not found`);
    result.absent.push(dir.display);
    return false;
  };
  const hasRoles = await present(roles, 'roles');
  const hasFlows = await present(flows, 'flows');
  if (!hasRoles && !hasFlows) {
    throw new RoleflowError(`nothing to validate: neither ${roles.display}/ nor ${flows.display}/ exists (use --roles DIR or --flows DIR)`);
  }
  let roleNames: string[] | undefined;
  // The role files when they could be read (none without a folder); undefined when they are invalid.
  let roleFiles: RoleFile[] | undefined = hasRoles ? undefined : [];
  if (hasRoles) {
    const [loaded, stray] = await Promise.all([loadRoleFiles(cwd, roles), strayRoleFiles(cwd, roles)]);
    result.warnings.push(...stray);
    if (loaded.ok) {
      roleFiles = loaded.value;
      result.roleFiles = loaded.value.length;
      roleNames = loaded.value.map((r) => r.name);
      const scanner = options.secrets ?? secretScanner({});
      result.issues.push(...roleSecretIssues(loaded.value, scanner));
      // Each tenant renders the files that are for it: an undeclared variable is an error there.
      const tenants = (options.tenants ?? []).map((t) => ({ ...t, files: filesForTenant(loaded.value, t.name).kept }));
      pushAll(result.issues, varIssuesOfTenants(tenants));
      // …and a secret a variable puts in, as each tenant would get it.
      for (const t of options.tenants ?? []) {
        const rendered = roleFilesForTenant(loaded.value, t.name, t.vars);
        if (rendered.ok) pushAll(result.issues, renderedSecretIssues(loaded.value, rendered.value.kept, t.name, scanner));
      }
      // `local` is a tenant a file may name, rendered for or not.
      if (options.tenants !== undefined) result.warnings.push(...unmatchedTenantWarnings(loaded.value, [...new Set(['local', ...options.tenants.map((t) => t.name)])]));
    } else pushAll(result.issues, loaded.issues);
  }
  let tests: FlowTestFile[] | undefined;
  if (hasFlows) {
    const files = await listFilesUnder(cwd, flows.abs, isFlowFileName, isJudgesFolder);
    const loaded = await loadFlowTestFiles(files);
    result.flowFiles = files.length;
    if (!loaded.ok) pushAll(result.issues, loaded.issues);
    // `not_leaks` names a Role of the role files (when they were read: `test` reads them anyway).
    else if (roleNames) pushAll(result.issues, unknownLeakRoles(loaded.value, roleNames, roles.display));
    if (loaded.ok && !options.strictEnd) pushAll(result.warnings, loaded.value.flatMap(quietEndWarnings));
    if (loaded.ok && roleNames && roleFiles) pushAll(result.warnings, shortLeakRoles(loaded.value, roleFiles));
    if (loaded.ok) {
      tests = loaded.value;
      pushAll(result.warnings, loaded.value.flatMap((file) => transportWarnings(file, options.testTenant)));
    }
  }
  if (options.embeddedFlows && roleFiles) result.issues.push(...(await embeddedFlowRoleIssues(options.embeddedFlows, roleFiles, tests, roles.display)));
  return result;
}

/** A WebSocket test that only quiet can end: it may pass a flow whose later node hung. */
function quietEndWarnings(file: FlowTestFile): Issue[] {
  return quietEndedWsTests(file).map((t) => ({
    file: t.file,
    line: t.line,
    col: t.col,
    message: `warning: test "${t.name}" has no until.node or until.messages: over WebSocket it ends after until.quiet of silence, and passes even when a later node never finished; set one, or turn on flows.strict_end (--strict-end)`,
  }));
}

/**
 * The tenant a plain `roleflow test` would run on: ROLEFLOW_TENANT, else default_tenant, else the
 * embedded local (which has a ws_url); undefined when that names no tenant of the config.
 */
export function testTenantOf(config: Config, env: Record<string, string | undefined>): TenantTransports | undefined {
  const name = env['ROLEFLOW_TENANT'] || config.defaultTenant || 'local';
  const configured = configuredTenant(config, name);
  if (configured !== undefined) return { name, hasWs: configured.wsUrl !== undefined };
  return name === 'local' ? { name, hasWs: true } : undefined;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
