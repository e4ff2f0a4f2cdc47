import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MAX_CHANGED, type WorkTreeRecord } from '../../core/runs/index.js';
import { git, porcelainEntries } from './git-commit.js';

/** A file as the file system knows it, whatever path names it. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

/**
 * Whether the git work tree holding `cwd` is the commit checked out: clean when no tracked file
 * changed (staged or not) and no untracked file is there that git does not ignore. Never counted:
 * roleflow's own `.roleflow/` folders (the embedded tenant's state, the last run), wherever they
 * are, and `leaveOut`: the reports this command wrote (absolute paths), and the file stdout was
 * redirected to (`--json > report.json`: the shell made it before the run). Unknown outside a git
 * checkout, without git, or when git fails. Takes no lock (`--no-optional-locks`).
 */
export async function workTreeState(cwd: string, leaveOut: { paths?: readonly string[]; file?: FileIdentity } = {}): Promise<WorkTreeRecord> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return { state: 'unknown' };
  const root = top.stdout.replace(/\r?\n$/, '');
  // An untracked folder is one entry (`?? out/`): a folder of thousands of files is not listed.
  const status = await statusEntries(root, '.', 'normal');
  if (status === undefined) return { state: 'unknown' };
  const realRoot = await realpath(root).catch(() => root);
  const left = new Set(await Promise.all((leaveOut.paths ?? []).map(async (path) => relative(realRoot, await realpath(path).catch(() => path)).split(sep).join('/'))));
  const changed: string[] = [];
  for (const { path, untracked } of status) {
    if (untracked && (left.has(path) || (await isFile(join(root, path), leaveOut.file)))) continue;
    // A new folder that holds a report this command wrote: its files, one by one.
    if (untracked && path.endsWith('/') && [...left].some((file) => file.startsWith(path))) {
      const inside = await statusEntries(root, `:(literal)${path}`, 'all');
      if (inside === undefined) return { state: 'unknown' };
      changed.push(...inside.map((e) => e.path).filter((file) => !left.has(file)));
      continue;
    }
    changed.push(path);
  }
  if (changed.length === 0) return { state: 'clean' };
  return { state: 'dirty', changed: changed.sort().slice(0, MAX_CHANGED) };
}

/** roleflow's own state, in any `.roleflow/` folder: it never makes a work tree dirty. */
const NOT_ROLEFLOW_STATE = ':(exclude,glob)**/.roleflow/**';

/**
 * `git status` of `pathspec` in the repository's root `root`, leaving out `.roleflow/` folders:
 * each changed path (from the root; a new folder, untracked, ends in `/` unless `untracked` is
 * `all`) and whether it is untracked; undefined when git fails.
 */
async function statusEntries(root: string, pathspec: string, untracked: 'normal' | 'all'): Promise<{ path: string; untracked: boolean }[] | undefined> {
  const status = await git(root, ['--no-optional-locks', 'status', '--porcelain', '-z', `--untracked-files=${untracked}`, '--', pathspec, NOT_ROLEFLOW_STATE]);
  if (!status.ok) return undefined;
  return porcelainEntries(status.stdout).map(({ code, path }) => ({ path, untracked: code === '??' }));
}

/** Whether `path` is `file` (the file stdout was redirected to, made by the shell before the run). */
async function isFile(path: string, file: FileIdentity | undefined): Promise<boolean> {
  if (file === undefined) return false;
  const found = await stat(path, { bigint: true }).catch(() => undefined);
  return found !== undefined && found.dev === file.dev && found.ino === file.ino;
}
