import { pushAll } from '../core/large-arrays.js';
import { RoleflowError, type Issue } from '../core/errors.js';
import { shortLeakRoles, unknownLeakRoles, type FlowTestFile } from '../core/flows/index.js';
import { quietEndedWsTests } from '../core/runs/index.js';
import { isFlowFileName, loadFlowTestFiles } from '../files/flow-files.js';
import { filesForTenant, unmatchedTenantWarnings, varIssuesOfTenants, type TenantVars } from '../core/roles/index.js';
import { loadRoleFiles } from '../files/role-files.js';
import { dirExists, listFilesUnder, type SourceDir } from '../files/source-files.js';

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
  let roleTexts: { name: string; content: string }[] = [];
  if (hasRoles) {
    const loaded = await loadRoleFiles(cwd, roles);
    if (loaded.ok) {
      result.roleFiles = loaded.value.length;
      roleNames = loaded.value.map((r) => r.name);
      roleTexts = loaded.value;
      // Each tenant renders the files that are for it: an undeclared variable is an error there.
      const tenants = (options.tenants ?? []).map((t) => ({ ...t, files: filesForTenant(loaded.value, t.name).kept }));
      pushAll(result.issues, varIssuesOfTenants(tenants));
      // `local` is a tenant a file may name, rendered for or not.
      if (options.tenants !== undefined) result.warnings.push(...unmatchedTenantWarnings(loaded.value, [...new Set(['local', ...options.tenants.map((t) => t.name)])]));
    } else pushAll(result.issues, loaded.issues);
  }
  if (hasFlows) {
    const files = await listFilesUnder(cwd, flows.abs, isFlowFileName);
    const loaded = await loadFlowTestFiles(files);
    result.flowFiles = files.length;
    if (!loaded.ok) pushAll(result.issues, loaded.issues);
    // `not_leaks` names a Role of the role files (when they were read: `test` reads them anyway).
    else if (roleNames) pushAll(result.issues, unknownLeakRoles(loaded.value, roleNames, roles.display));
    if (loaded.ok && !options.strictEnd) pushAll(result.warnings, loaded.value.flatMap(quietEndWarnings));
    if (loaded.ok && roleNames) pushAll(result.warnings, shortLeakRoles(loaded.value, roleTexts));
  }
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
