import { tenantVars, type Config } from '../core/config.js';
import { InvalidFilesError } from '../core/errors.js';
import { DRIFT_FORMAT_VERSION, tenantDrift, type DriftDocument } from '../core/drift/index.js';
import { roleFilesForTenant } from '../core/roles/index.js';
import { isTenantFailure } from '../core/tenants/index.js';
import { loadRoleFiles, rolesDirOf } from '../files/role-files.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import { openJournal, readRecords } from './journal.js';

export interface DriftOptions {
  cwd: string;
  config: Config;
  tenants: readonly string[];
  /** `--roles`: the folder of role files, when not the config's. */
  roles: string | undefined;
}

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
export async function drift(opts: DriftOptions, ports: DriftPorts): Promise<DriftDocument> {
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
