import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Config } from '../core/config/config.js';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import type { TextFileKind } from '../core/text/text-file.js';
import { readTextFileSync, type SourceFile } from './bounded-read.js';

export { readBounded, readTextFile, type SourceFile } from './bounded-read.js';

/**
 * Finding and reading the files roleflow checks (role files, flow tests): one folder walk, one
 * bounded read and one decoding for every kind, so `validate`, `plan` and `test` agree on which
 * files exist, how they are named in messages, and which ones are refused.
 */

/** A folder of role files or flow tests: where it is, and how it is shown in messages. */
export interface SourceDir {
  abs: string;
  /** `displayPath` of the folder (`roles`). */
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

/**
 * A path as messages and reports show it: relative to the working folder with `/` (`roles/a.md`,
 * `../shared/flows/x.yaml`), so it reads the same on every machine and every OS; absolute only
 * where no relative path exists (another drive on Windows).
 */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === '') return '.';
  return (isAbsolute(rel) ? abs : rel).split(sep).join('/');
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
 * The files under `dir` whose names `accept` takes, sorted by their path. What the walk leaves
 * out, for every kind of file alike:
 * - names starting with a dot (`.git`, `.cache`, editor swap files), files and folders;
 * - `node_modules` folders: dependencies, not the project's roles or tests;
 * - symbolic links to folders, which are not followed, so a link cannot make the walk loop or
 *   leave the folder; a link to a file is read as that file (marked `link`: it may lead out of
 *   the folder, see `outsideRepository`), a dangling one is passed over.
 */
export async function listFilesUnder(cwd: string, dir: string, accept: (name: string) => boolean): Promise<SourceFile[]> {
  // The files' paths in the folder (`team/a.md`); each one's own path is the folder's plus that.
  const found: string[] = [];
  const links = new Set<string>();
  const root = resolve(dir); // normal, so each entry's path is the folder's plus its name
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      throw new RoleflowError(`${displayPath(cwd, abs)}: cannot read the folder (${err.code ?? String(err)})`);
    });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') await walk(under(root, childRel), childRel);
      } else if (accept(entry.name) && entry.isFile()) {
        found.push(childRel);
      } else if (accept(entry.name) && entry.isSymbolicLink() && (await isFile(under(root, childRel)))) {
        found.push(childRel);
        links.add(childRel);
      }
    }
  };
  await walk(root, '');
  // A file's display path is the folder's plus its path in the folder (no path.relative per
  // file, which was most of listing ten thousand files), except when the working folder is
  // inside this one: then `relative` shortens paths that lead back into it.
  const shown = displayPath(cwd, dir);
  const prefix = isStrictlyInside(dir, cwd) ? undefined : shown === '.' ? '' : `${shown}/`;
  // The default sort compares strings by UTF-16 code units, as `<` does, without a call per comparison.
  return found.sort().map((rel) => {
    const abs = under(root, rel);
    const source: SourceFile = { abs, file: prefix === undefined ? displayPath(cwd, abs) : prefix + rel, seenAsFile: true };
    if (links.has(rel)) source.link = true;
    return source;
  });
}

/**
 * `join(root, rel)` without its normalising: `root` is normal, and `rel` is names joined with `/`,
 * none of them empty, `.` or `..` (names starting with a dot are left out), none holding a separator.
 */
function under(root: string, rel: string): string {
  const path = sep === '/' ? rel : rel.replaceAll('/', sep);
  return root.endsWith(sep) ? root + path : root + sep + path;
}

/**
 * Read and parse every file; the values in the files' order, and every problem of every file, so
 * one run shows everything to fix.
 */
export async function loadTextFiles<T>(
  sources: readonly SourceFile[],
  kind: TextFileKind,
  parse: (text: string, file: string) => Result<T>,
): Promise<{ values: T[]; issues: Issue[] }> {
  const values: T[] = [];
  const issues: Issue[] = [];
  for (const source of sources) {
    const text = readTextFileSync(source, kind);
    const result = text.ok ? parse(text.value, source.file) : text;
    if (result.ok) values.push(result.value);
    else issues.push(...result.issues);
  }
  return { values, issues };
}

function isStrictlyInside(parent: string, path: string): boolean {
  const rel = relative(parent, path);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isFile();
  } catch {
    return false;
  }
}
