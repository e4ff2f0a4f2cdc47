import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Config } from '../core/config.js';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import { decodeText, tooLargeIssue, type TextFileKind } from '../core/text-file.js';

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

/** A file found or named: `file` is its name in every message and report (`displayPath`). */
export interface SourceFile {
  abs: string;
  file: string;
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
 *   leave the folder; a link to a file is read as that file, a dangling one is passed over.
 */
export async function listFilesUnder(cwd: string, dir: string, accept: (name: string) => boolean): Promise<SourceFile[]> {
  const found: { rel: string; abs: string }[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      throw new RoleflowError(`${displayPath(cwd, abs)}: cannot read the folder (${err.code ?? String(err)})`);
    });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      // `join` without its normalising: `abs` is already normal, and an entry's name is one plain segment.
      const childAbs = abs.endsWith(sep) ? abs + entry.name : abs + sep + entry.name;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') await walk(childAbs, childRel);
      } else if (accept(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(childAbs))))) {
        found.push({ rel: childRel, abs: childAbs });
      }
    }
  };
  await walk(resolve(dir), ''); // normal, so each entry's path is the folder's plus its name
  // A file's display path is the folder's plus its path in the folder (no path.relative per
  // file, which was most of listing ten thousand files), except when the working folder is
  // inside this one: then `relative` shortens paths that lead back into it.
  const shown = displayPath(cwd, dir);
  const prefix = isStrictlyInside(dir, cwd) ? undefined : shown === '.' ? '' : `${shown}/`;
  return found
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .map((f) => ({ abs: f.abs, file: prefix === undefined ? displayPath(cwd, f.abs) : prefix + f.rel }));
}

/**
 * Reads at most `limit.maxBytes`: the size is checked before reading, so a huge file is never
 * loaded; something other than a file (a FIFO, a device) is refused rather than waited on.
 */
export async function readBounded(abs: string, file: string, limit: Pick<TextFileKind, 'maxBytes' | 'noun'>): Promise<Result<Uint8Array>> {
  return readBoundedSync(abs, file, limit);
}

/**
 * `readBounded` without the thread pool: open, fstat, read, close on this thread. For the many
 * small files of a roles folder this is several times quicker than `fs.promises`, where each of
 * those steps is a thread-pool job and a callback. The open does not block: with O_NONBLOCK a
 * FIFO opens at once (without it, it would wait for a writer), and fstat then refuses it.
 */
export function readBoundedSync(abs: string, file: string, limit: Pick<TextFileKind, 'maxBytes' | 'noun'>): Result<Uint8Array> {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return cannotRead(file, code === 'EISDIR' ? 'it is a folder' : (code ?? String(err)));
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return cannotRead(file, s.isDirectory() ? 'it is a folder' : 'not a regular file');
    if (s.size > limit.maxBytes) return { ok: false, issues: [tooLargeIssue(file, s.size, limit)] };
    const bytes = readOpen(fd, s.size, limit.maxBytes);
    if (bytes.length > limit.maxBytes) return { ok: false, issues: [tooLargeIssue(file, bytes.length, limit)] };
    return { ok: true, value: bytes };
  } catch (err) {
    return cannotRead(file, (err as NodeJS.ErrnoException).code ?? String(err));
  } finally {
    closeSync(fd);
  }
}

// O_NONBLOCK does not exist on Windows, which has no FIFOs in its file system either.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The file's bytes as `readFileSync` reads them: `size` bytes (fewer if it shrank meanwhile), or,
 * when fstat says 0 (virtual files that only know their length once read), until the end, but
 * never more than one byte past `maxBytes`, so the caller can refuse it.
 */
function readOpen(fd: number, size: number, maxBytes: number): Uint8Array {
  if (size > 0) {
    const buffer = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buffer, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? buffer : buffer.subarray(0, got);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** A text file of the given kind, read within its limit and decoded (`decodeText`). */
export async function readTextFile(source: SourceFile, kind: TextFileKind): Promise<Result<string>> {
  return readTextFileSync(source, kind);
}

function readTextFileSync(source: SourceFile, kind: TextFileKind): Result<string> {
  const bytes = readBoundedSync(source.abs, source.file, kind);
  return bytes.ok ? decodeText(bytes.value, source.file, kind) : bytes;
}

function cannotRead(file: string, why: string): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ file, line: 1, col: 1, message: `cannot read the file (${why})` }] };
}

/**
 * Read and parse every file, one after another on this thread (see `readBoundedSync`); the values
 * in the files' order, and every problem of every file, so one run shows everything to fix.
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
