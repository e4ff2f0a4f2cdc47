import { dirname, posix, resolve } from 'node:path';
import { parseConfig, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError, type Issue } from '../../core/errors.js';
import { checkRoleSet, parseRoleFile, type RoleFile } from '../../core/roles/index.js';
import { ROLE_FILE } from '../../core/roles/role-file.js';
import { decodeText, tooLargeIssue } from '../../core/text/text-file.js';
import { CONFIG_FILE } from '../config-file.js';
import { pathInRepository, readCommitFile, readCommitFiles, resolveCommit, type CommitRef } from './git-tree.js';
import { loadSchema } from '../package-root.js';
import { isRoleFileName } from '../role-files.js';

/** The role files of a commit, and the config as that commit's variables make it. */
export interface CommitRoles {
  at: CommitRef;
  files: RoleFile[];
  /**
   * Today's config (tenants, guards) with the commit's `vars` — top-level and each tenant's — and
   * its `roles.dir`: the Roles as that commit rendered them. A commit without the config file has no variables.
   */
  config: Config;
}

/**
 * The role files of commit REF, read with git (not the work tree), with the variables and role
 * folder of REF's config; files named `REF:path`. Any problem stops before anything is sent: a
 * REF git does not know (exit 1, one line), files that do not parse, a role folder outside the repository.
 */
export async function loadCommitRoles(cwd: string, config: Config, ref: string, rolesFlag: string | undefined): Promise<CommitRoles> {
  const at = await resolveCommit(cwd, ref);
  const configAt = await commitConfig(cwd, config, at);
  const rolesAbs = rolesFlag !== undefined ? resolve(cwd, rolesFlag) : resolve(cwd, config.file === undefined ? '.' : dirname(config.file), configAt.roles.dir);
  const rolesDir = await pathInRepository(at.root, rolesAbs);
  if (rolesDir === undefined) throw new RoleflowError(`the roles folder ${rolesAbs} is outside the git repository: ${ref}'s role files cannot be read`, 'usage');
  const schema = loadSchema('role');
  const issues: Issue[] = [];
  const files: RoleFile[] = [];
  for (const found of await readCommitFiles(cwd, at, rolesDir, isRoleFileName, ROLE_FILE.maxBytes)) {
    const name = `${ref}:${found.path}`;
    const text = found.bytes === undefined ? { ok: false as const, issues: [tooLargeIssue(name, found.size, ROLE_FILE)] } : decodeText(found.bytes, name, ROLE_FILE);
    const parsed = text.ok ? parseRoleFile(text.value, name, schema) : text;
    if (parsed.ok) files.push(parsed.value);
    else issues.push(...parsed.issues);
  }
  issues.push(...checkRoleSet(files));
  if (issues.length > 0) throw new InvalidFilesError(issues);
  return { at, files, config: configAt };
}

/** Today's config with REF's variables and role folder (REF without the file: none, and the default folder). */
async function commitConfig(cwd: string, config: Config, at: CommitRef): Promise<Config> {
  const path = config.file === undefined ? undefined : await pathInRepository(at.root, resolve(cwd, config.file));
  const found = path === undefined ? undefined : await readCommitFile(cwd, at, path, CONFIG_FILE.maxBytes);
  if (found === undefined) return { ...config, vars: {}, tenants: withVars(config, () => undefined) };
  const name = `${at.ref}:${posix.normalize(found.path)}`;
  const text = found.bytes === undefined ? { ok: false as const, issues: [tooLargeIssue(name, found.size, CONFIG_FILE)] } : decodeText(found.bytes, name, CONFIG_FILE);
  const parsed = text.ok ? parseConfig(text.value, name, loadSchema('config')) : text;
  if (!parsed.ok) throw new InvalidFilesError(parsed.issues);
  const then = parsed.value;
  return { ...config, vars: then.vars, tenants: withVars(config, (tenant) => (Object.hasOwn(then.tenants, tenant) ? then.tenants[tenant]!.vars : undefined)), roles: { ...config.roles, dir: then.roles.dir } };
}

function withVars(config: Config, varsOf: (tenant: string) => Record<string, string> | undefined): Config['tenants'] {
  return Object.fromEntries(
    Object.entries(config.tenants).map(([name, tenant]) => {
      const { vars: _today, ...rest } = tenant;
      const vars = varsOf(name);
      return [name, vars === undefined ? rest : { ...rest, vars }];
    }),
  );
}
