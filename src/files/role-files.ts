import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../core/config/config.js';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import { checkRoleSet, parseRoleFile, type RoleFile, type TenantVars } from '../core/roles/index.js';
import { leakTexts } from '../core/flows/checks/leak-sources.js';
import type { RoleText } from '../core/flows/index.js';
import { ROLE_FILE } from '../core/roles/role-file.js';
import { loadSchema } from './package-root.js';
import { outsideRepository } from './repository-bounds.js';
import { dirExists, listFilesUnder, loadTextFiles, sourceDir, type SourceDir } from './source-files.js';

export function rolesDirOf(cwd: string, config: Config, flag: string | undefined): SourceDir {
  return sourceDir(cwd, config, flag, config.roles.dir, 'roles');
}

/** `*.md` files other than README.md (any case): those explain the folder and are not roles. */
export function isRoleFileName(name: string): boolean {
  // Only a name as long as README.md is lower-cased: not one new string per file of a large folder.
  return /\.md$/i.test(name) && (name.length !== README.length || name.toLowerCase() !== README);
}

const README = 'readme.md';

/**
 * Files under the roles folder written as YAML (`*.yaml`, `*.yml`): not read as Roles — a role
 * file is Markdown — so each is a warning, at its first line, that would otherwise be silence.
 */
export async function strayRoleFiles(cwd: string, dir: SourceDir): Promise<Issue[]> {
  if (!(await dirExists(dir))) return [];
  const yaml = await listFilesUnder(cwd, dir.abs, (name) => /\.ya?ml$/i.test(name));
  return yaml.map(({ file }) => ({
    file,
    line: 1,
    col: 1,
    message: `warning: not read: a role file is Markdown (.md), its name and description as YAML between --- lines at the top, the Role's content below; rename it ${file.replace(/\.ya?ml$/i, '.md')} in that form`,
  }));
}

/**
 * Every role file under the folder, parsed; a missing folder is an error. All problems of all
 * files come back together (and names or ids used twice), so one run shows everything to fix.
 * A role file that resolves outside the repository (`outsideRepository`) is one of them, unread.
 */
export async function loadRoleFiles(cwd: string, dir: SourceDir): Promise<Result<RoleFile[]>> {
  if (!(await dirExists(dir))) {
    throw new RoleflowError(`roles folder ${dir.display} not found: create it, or point --roles (or roles.dir in the config) at your role files`);
  }
  const sources = await listFilesUnder(cwd, dir.abs, isRoleFileName);
  // A link out of the repository is not read at all: its text is no commit's, and may be any file's.
  const outside = await outsideRepository(dir, sources, 'role');
  const away = new Set(outside.map((issue) => issue.file));
  const schema = loadSchema('role');
  const read = away.size === 0 ? sources : sources.filter((source) => !away.has(source.file));
  const { values: files, issues } = await loadTextFiles(read, ROLE_FILE, (text, file) => parseRoleFile(text, file, schema));
  issues.unshift(...outside);
  issues.push(...checkRoleSet(files));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: files };
}

/**
 * Write `text` to `path` so that a reader sees the old file or the new one, never half of one:
 * a temp file beside it, then a rename. Renaming also replaces a symbolic link rather than
 * writing through it, so the write stays in the folder it names.
 */
export async function writeFileAtomic(path: string, text: string | Iterable<Uint8Array>): Promise<void> {
  // Unique enough among concurrent writers (the file is created exclusively, never clobbered), and
  // without node:crypto, which every command that reads role files would otherwise load.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      // A text in pieces (a large plan, as UTF-8) is written a piece at a time, never joined whole;
      // each writeFile goes on from where the last ended, and writes all of its piece.
      for (const piece of typeof text === 'string' ? [text] : text) await handle.writeFile(piece, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * The Roles' texts for `not_leaks` on a tenant with variables `vars`: each role file's content as
 * that tenant gets it (`leakTexts`), and where it came from in its file (so a leak names the line).
 */
export async function loadRoleTexts(cwd: string, dir: SourceDir, vars: TenantVars): Promise<Result<RoleText[]>> {
  const loaded = await loadRoleFiles(cwd, dir);
  return loaded.ok ? { ok: true, value: leakTexts(loaded.value, vars) } : loaded;
}
