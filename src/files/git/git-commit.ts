import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { escapeControls } from '../../core/text/safe-text.js';

/** A full git object name (SHA-1 or SHA-256), nothing else: what a report records as its commit. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit being tested or promoted, or why it is not known; `warning`: a GITHUB_SHA that was passed over. */
export interface CommitLookup {
  commit: string | undefined;
  /** When `commit` is undefined: what was the case, e.g. `no GITHUB_SHA, and /w is not in a git checkout`. */
  unknown?: string;
  /** One line for stderr: `$GITHUB_SHA` was set to something that is no full sha, and git was asked instead. */
  warning?: string;
  /** In a git checkout, a full GITHUB_SHA that is not HEAD: `GITHUB_SHA X is not the checked-out commit Y: the files here are Y's` (`warning` says it too). */
  notCheckedOut?: string;
}

/**
 * The commit being tested or promoted: `$GITHUB_SHA` in a workflow when it is a full sha (40 or 64
 * hex digits), else `git rev-parse HEAD` in `cwd` (with a warning when GITHUB_SHA was set to
 * something else), else none, saying why. Never throws: a report without a commit is still a
 * report, and `promote` refuses one.
 */
export async function currentCommit(cwd: string, env: Record<string, string | undefined>): Promise<CommitLookup> {
  const raw = env['GITHUB_SHA'];
  const fromEnv = raw?.trim().toLowerCase();
  if (fromEnv && FULL_SHA.test(fromEnv)) return withHead(cwd, fromEnv);
  const shown = raw ? `GITHUB_SHA ${JSON.stringify(escapeControls(raw.slice(0, 80)))}` : undefined;
  const warning = shown && `warning: ${shown} is not a full commit sha (40 or 64 hex digits): using git rev-parse HEAD instead`;
  const head = await headCommit(cwd);
  if (head.sha !== undefined) return { commit: head.sha, ...(warning && { warning }) };
  const why = await whyNoHead(cwd, head.noGit);
  const unknown = `${shown ? `${shown} is not a full commit sha` : 'no GITHUB_SHA'}, and ${why}`;
  return { commit: undefined, unknown, ...(warning && { warning }) };
}

/** How the files under some paths stand against the commit checked out (paths as `git status` names them, from the repository's root). */
export interface TreeState {
  /** Staged, unstaged, or untracked and not ignored: the working copy is not the commit. Sorted. */
  uncommitted: string[];
  /** Ignored by git (`.gitignore`, `info/exclude`): no commit holds them. Sorted. */
  ignored: string[];
  /** Of the paths asked about, those outside the git checkout (absolute, as given). */
  outside: string[];
}

/**
 * How the files under `paths` (absolute) stand against the commit checked out in `cwd`'s git
 * checkout (`git status --porcelain --ignored`, every untracked or ignored file listed on its
 * own); undefined when `cwd` is not in a git checkout (or there is no git).
 */
export async function treeState(cwd: string, paths: readonly string[]): Promise<TreeState | undefined> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return undefined;
  const root = await realOrSelf(top.stdout.replace(/\r?\n$/, ''));
  const inside: string[] = [];
  const outside: string[] = [];
  for (const path of paths) {
    const rel = relative(root, await realOrSelf(path));
    (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? outside : inside).push(path);
  }
  const state: TreeState = { uncommitted: [], ignored: [], outside };
  if (inside.length === 0) return state;
  const status = await git(cwd, ['--literal-pathspecs', 'status', '--porcelain', '-z', '--ignored=traditional', '--untracked-files=all', '--', ...inside]);
  if (!status.ok) return undefined;
  for (const { code, path } of porcelainEntries(status.stdout)) (code === '!!' ? state.ignored : state.uncommitted).push(path);
  state.uncommitted.sort();
  state.ignored.sort();
  return state;
}

/**
 * The entries of `git status --porcelain -z`: each one's two status letters (`??` untracked, `!!`
 * ignored) and path, from the repository's root. A rename or copy is followed by its old path,
 * which is not listed.
 */
export function porcelainEntries(stdout: string): { code: string; path: string }[] {
  const found: { code: string; path: string }[] = [];
  const entries = stdout.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.length < 4) continue;
    found.push({ code: entry.slice(0, 2), path: entry.slice(3) });
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return found;
}

/** The path with symbolic links resolved (git names the checkout's real root), or as given when it does not exist. */
function realOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** `GITHUB_SHA` (a full sha) as the commit; in a git checkout whose HEAD is another commit, saying so. */
async function withHead(cwd: string, fromEnv: string): Promise<CommitLookup> {
  const { sha } = await headCommit(cwd);
  if (sha === undefined || sha === fromEnv) return { commit: fromEnv };
  const notCheckedOut = `GITHUB_SHA ${fromEnv} is not the checked-out commit ${sha}: the files here are ${sha}'s`;
  return { commit: fromEnv, notCheckedOut, warning: `warning: ${notCheckedOut}` };
}

/** The commit checked out in `cwd` (`git rev-parse HEAD`); `noGit`: there is no git to ask. */
async function headCommit(cwd: string): Promise<{ sha?: string; noGit: boolean }> {
  const head = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  const sha = head.ok ? head.stdout.trim().toLowerCase() : '';
  return { ...(FULL_SHA.test(sha) && { sha }), noGit: head.missing };
}

async function whyNoHead(cwd: string, noGit: boolean): Promise<string> {
  if (noGit) return 'git is not installed';
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
  return inside.ok ? 'the git checkout has no commit yet' : `${cwd} is not in a git checkout`;
}

/** `git ARGS` in `cwd`: whether it succeeded, its stdout, and whether there is no git at all. */
export function git(cwd: string, args: string[]): Promise<{ ok: boolean; stdout: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve({ ok: error === null, stdout: String(stdout), missing: (error as { code?: unknown } | null)?.code === 'ENOENT' });
    });
  });
}

/** `git config user.name` in `cwd`; undefined when unset or there is no git. */
export async function gitUserName(cwd: string): Promise<string | undefined> {
  const name = await git(cwd, ['config', 'user.name']);
  return name.ok && name.stdout.trim() !== '' ? name.stdout.trim() : undefined;
}

/** The branch checked out (`refs/heads/main`); undefined on a detached HEAD or outside git. */
export async function currentBranch(cwd: string): Promise<string | undefined> {
  const ref = await git(cwd, ['symbolic-ref', '--quiet', 'HEAD']);
  return ref.ok && ref.stdout.trim() !== '' ? ref.stdout.trim() : undefined;
}
