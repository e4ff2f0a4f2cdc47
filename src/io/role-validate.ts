import pLimit from 'p-limit';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import { parseFlowTestFile } from '../core/flows/index.js';
import { loadSchema } from './package-root.js';
import { dirExists, displayPath, listFilesUnder, loadRoleFiles, readBounded, type SourceDir } from './role-files.js';

/** Flow tests are small YAML files; anything this large is a mistake, refused before reading. */
const MAX_FLOW_FILE_BYTES = 4 * 1024 * 1024;

export interface Validation {
  roleFiles: number;
  flowFiles: number;
  issues: Issue[];
  /** Default folders that do not exist, so were not checked. */
  absent: string[];
}

/**
 * `validate`: every role file and flow test file, offline. A folder named by a flag or the config
 * must exist; a default one that does not is only reported, as long as one of the two exists.
 */
export async function validateSources(cwd: string, roles: SourceDir, flows: SourceDir): Promise<Validation> {
  const result: Validation = { roleFiles: 0, flowFiles: 0, issues: [], absent: [] };
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
  if (hasRoles) {
    const loaded = await loadRoleFiles(cwd, roles);
    if (loaded.ok) result.roleFiles = loaded.value.length;
    else result.issues.push(...loaded.issues);
  }
  if (hasFlows) {
    const paths = await listFilesUnder(flows.abs, (name) => /\.ya?ml$/i.test(name));
    const schema = loadSchema('flow-test');
    const limit = pLimit(16);
    const checked = await Promise.all(paths.map((abs) => limit(() => checkFlowFile(abs, displayPath(cwd, abs), schema))));
    result.flowFiles = paths.length;
    for (const issues of checked) result.issues.push(...issues);
  }
  return result;
}

async function checkFlowFile(abs: string, file: string, schema: object): Promise<Issue[]> {
  const bytes = await readBounded(abs, file, MAX_FLOW_FILE_BYTES);
  if (!bytes.ok) return bytes.issues;
  const text = decodeText(bytes.value, file);
  if (!text.ok) return text.issues;
  const parsed = parseFlowTestFile(text.value, file, schema);
  return parsed.ok ? [] : parsed.issues;
}

function decodeText(bytes: Uint8Array, file: string): Result<string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, issues: [{ file, line: 1, col: 1, message: 'binary file (not valid UTF-8): a flow test is YAML text' }] };
  }
  if (text.includes('\0')) return { ok: false, issues: [{ file, line: 1, col: 1, message: 'binary file (contains a NUL byte): a flow test is YAML text' }] };
  return { ok: true, value: text.startsWith('\uFEFF') ? text.slice(1) : text };
}
