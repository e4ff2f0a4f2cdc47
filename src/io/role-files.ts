import { randomBytes } from 'node:crypto';
import { lstat, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import pLimit from 'p-limit';
import type { Config } from '../core/config.js';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import { checkRoleSet, decodeRoleFile, MAX_ROLE_FILE_BYTES, parseRoleFile, type RoleFile } from '../core/roles/index.js';
import { loadSchema } from './package-root.js';

/** A folder of role files (or flow tests): where it is, and how it is shown in messages. */
export interface SourceDir {
  abs: string;
  /** Relative to the working folder, posix-style (`roles`), or absolute when that reads better. */
  display: string;
  /** Named by a flag or the config file rather than defaulted. */
  explicit: boolean;
}

/**
 * The folder a command reads: `--flag DIR` is relative to the working folder; the config's
 * `roles.dir` / `flows.dir` is relative to the config file's folder.
 */
export function sourceDir(cwd: string, config: Config, flag: string | undefined, fromConfig: string, defaultDir: string): SourceDir {
  const abs = flag !== undefined ? resolve(cwd, flag) : resolve(cwd, config.file === undefined ? '.' : dirname(config.file), fromConfig);
  const explicit = flag !== undefined || (config.file !== undefined && fromConfig !== defaultDir);
  return { abs, display: displayPath(cwd, abs), explicit };
}

export function rolesDirOf(cwd: string, config: Config, flag: string | undefined): SourceDir {
  return sourceDir(cwd, config, flag, config.roles.dir, 'roles');
}

/** `roles/a.md` for a file under the working folder; the absolute path for one outside it. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === '') return '.';
  if (isAbsolute(rel) || rel.split(sep)[0] === '..') return abs.split(sep).join('/');
  return rel.split(sep).join('/');
}

/** Whether the folder exists; a file in its place is an error. */
export async function dirExists(dir: SourceDir): Promise<boolean> {
  try {
    const s = await stat(dir.abs);
    if (!s.isDirectory()) throw new RoleflowError(`${dir.display} is not a folder`);
    return true;
  } catch (err) {
    if (err instanceof RoleflowError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new RoleflowError(`${dir.display}: cannot read the folder (${code ?? String(err)})`);
  }
}

/**
 * Files under `dir` whose names `accept` takes, as absolute paths sorted by their posix relative
 * path. Entries whose names start with a dot (`.git`, editor swap files) are not read; symbolic
 * links to folders are not followed, so a link cannot make the walk loop or leave the folder.
 */
export async function listFilesUnder(dir: string, accept: (name: string) => boolean): Promise<string[]> {
  const found: { rel: string; abs: string }[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      throw new RoleflowError(`cannot read the folder ${abs} (${err.code ?? String(err)})`);
    });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childAbs = join(abs, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(childAbs, childRel);
      else if (accept(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(childAbs))))) {
        found.push({ rel: childRel, abs: childAbs });
      }
    }
  };
  await walk(dir, '');
  return found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)).map((f) => f.abs);
}

/** `*.md` files other than README.md (any case): those explain the folder and are not roles. */
export function isRoleFileName(name: string): boolean {
  return /\.md$/i.test(name) && name.toLowerCase() !== 'readme.md';
}

/** Reads at most `maxBytes`: the size is checked first, so a huge file is never loaded. */
export async function readBounded(abs: string, file: string, maxBytes: number): Promise<Result<Uint8Array>> {
  try {
    const s = await stat(abs);
    if (s.size > maxBytes) {
      return { ok: false, issues: [{ file, line: 1, col: 1, message: `file is too large (${s.size} bytes): at most ${maxBytes} bytes are read` }] };
    }
    return { ok: true, value: await readFile(abs) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    return { ok: false, issues: [{ file, line: 1, col: 1, message: `cannot read the file (${code})` }] };
  }
}

/**
 * Every role file under the folder, parsed; a missing folder is an error. All problems of all
 * files come back together (and names or ids used twice), so one run shows everything to fix.
 */
export async function loadRoleFiles(cwd: string, dir: SourceDir): Promise<Result<RoleFile[]>> {
  if (!(await dirExists(dir))) {
    throw new RoleflowError(`roles folder ${dir.display} not found: create it, or point --roles (or roles.dir in the config) at your role files`);
  }
  const paths = await listFilesUnder(dir.abs, isRoleFileName);
  const schema = loadSchema('role');
  const limit = pLimit(16);
  const parsed = await Promise.all(
    paths.map((abs) =>
      limit(async (): Promise<Result<RoleFile>> => {
        const file = displayPath(cwd, abs);
        const bytes = await readBounded(abs, file, MAX_ROLE_FILE_BYTES);
        if (!bytes.ok) return bytes;
        const text = decodeRoleFile(bytes.value, file);
        return text.ok ? parseRoleFile(text.value, file, schema) : text;
      }),
    ),
  );
  const files: RoleFile[] = [];
  const issues: Issue[] = [];
  for (const result of parsed) {
    if (result.ok) files.push(result.value);
    else issues.push(...result.issues);
  }
  issues.push(...checkRoleSet(files));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: files };
}

/**
 * Write `text` to `path` so that a reader sees the old file or the new one, never half of one:
 * a temp file beside it, then a rename. Renaming also replaces a symbolic link rather than
 * writing through it, so the write stays in the folder it names.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
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

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isFile();
  } catch {
    return false;
  }
}

/** Whether `path` is a symbolic link (false when it does not exist). */
export async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
