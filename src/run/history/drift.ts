import { tenantVars, type Config } from '../../core/config/config.js';
import { InvalidFilesError } from '../../core/errors.js';
import { DRIFT_FORMAT_VERSION, driftExitCode, driftIssue, isDriftError, renderDriftText, tenantDrift, type DriftDocument, type TenantDrift } from '../../core/apply/history/drift/index.js';
import { quote, roleFilesForTenant } from '../../core/roles/index.js';
import { isTenantFailure } from '../../core/tenants/index.js';
import { loadRoleFiles, rolesDirOf } from '../../files/role-files.js';
import { tenantNameOf, type OpenTenant } from '../../tenant/open-tenant.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { oneTenant, openOneTenant, severalTenants, type ManyTenantsOptions } from '../tenants.js';
import { openJournal, readRecords } from '../journal.js';

export interface DriftOptions extends CommonOptions, ManyTenantsOptions {
  /** `--roles DIR`, when not the config's folder. */
  roles?: string | undefined;
  json: boolean;
  detailedExitcode: boolean;
  /** `--notify issue`: each tenant's GitHub issue in the result (the Action posts it). */
  notify?: 'issue' | undefined;
}

/**
 * `roleflow drift`: each Role of each tenant classified (`driftDocument`), as text with a remedy
 * per Role or as JSON (`schemas/drift.schema.json`); with `--notify issue` each tenant's issue.
 * Exit 1 when a tenant could not be asked; `--detailed-exitcode`: 0 clean, 2 pending only, 5 drift.
 */
export async function drift(options: DriftOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  const config = await configOf(options, ports);
  const several = await severalTenants(config, options);
  const names = several ?? [tenantNameOf(config, { tenant: oneTenant(options, ports, 'drift'), baseUrl: options.baseUrl })];
  const open = (name: string) => (several === undefined ? openOneTenant(ports, config, options, 'drift') : ports.openTenant(config, { tenant: name }, { named: true }));
  const doc = await driftDocument({ cwd: ports.cwd, config, tenants: names, roles: options.roles }, { open, warn: (line) => output.err(line) });
  const reported = doc.tenants.filter((entry): entry is TenantDrift => !isDriftError(entry));
  if (options.notify === 'issue') for (const entry of reported) entry.issue = driftIssue(entry);
  if (options.json) output.json(doc);
  else output.out(renderDriftText(doc));
  for (const entry of reported) {
    if (entry.issue === undefined || options.json) continue;
    output.err(`notify: the issue of tenant ${quote(entry.tenant)} is to be ${entry.issue.open ? 'open' : 'closed'}: the Action's command: drift with notify: issue posts it (--json holds its title and body)`);
  }
  const failed = doc.tenants.filter(isDriftError);
  for (const entry of failed) output.err(`error: tenant ${quote(entry.tenant)}: ${entry.error.message}`);
  if (failed.length > 0) return ExitCode.Error;
  return options.detailedExitcode ? driftExitCode(reported.flatMap((entry) => entry.roles.map((r) => r.status))) : ExitCode.Ok;
}

/** What drift reads through: the tenants (opened by name), and a line for stderr. */
export interface DriftPorts {
  open(name: string): Promise<OpenTenant>;
  warn(line: string): void;
}

/**
 * `drift`: read-only, whatever it finds. The role files are read once (a problem in any stops it,
 * exit 1); each tenant is then listed and its journal read (a GET when the journal is kept in the
 * tenant), and each Role classified (`tenantDrift`). A tenant that cannot be asked gets its error
 * in its place, and the others are still reported.
 */
export async function driftDocument(opts: { cwd: string; config: Config; tenants: readonly string[]; roles: string | undefined }, ports: DriftPorts): Promise<DriftDocument> {
  const { cwd, config } = opts;
  const files = await loadRoleFiles(cwd, rolesDirOf(cwd, config, opts.roles));
  if (!files.ok) throw new InvalidFilesError(files.issues);
  const tenants: DriftDocument['tenants'] = [];
  for (const name of opts.tenants) {
    const rendered = roleFilesForTenant(files.value, name, tenantVars(config, name));
    if (!rendered.ok) throw new InvalidFilesError(rendered.issues);
    const tenant = await ports.open(name);
    try {
      const remote = await tenant.client.listRoles();
      const { records } = await readRecords(openJournal(cwd, config, tenant), ports.warn);
      tenants.push(tenantDrift({ tenant: name, files: rendered.value.kept, remote, records, ignore: config.roles.ignore, hide: config.drift.ignore }));
    } catch (error) {
      if (!isTenantFailure(error) || opts.tenants.length === 1) throw error;
      tenants.push({ tenant: name, error: { code: error.code, message: error.message } });
    } finally {
      await tenant.close();
    }
  }
  return { format_version: DRIFT_FORMAT_VERSION, tenants };
}
