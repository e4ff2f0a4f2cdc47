import { execFile, spawn } from 'node:child_process';
import { posix, relative, resolve, sep } from 'node:path';
import { realpath } from 'node:fs/promises';
import { RoleflowError } from '../../core/errors.js';
import { escapeControls } from '../../core/text/safe-text.js';

/**
 * Files as a commit holds them, read with git rather than from the work tree: `preview`'s base and
 * `rollback`'s target are the role files (and config) of another commit.
 */

/** A file of a commit: its path from the repository's root, its size, and its bytes when at most `maxBytes`. */
export interface CommitFile {
  path: string;
  size: number;
  bytes?: Uint8Array;
}

/** A commit of the repository `cwd` is in: the full sha REF names, and the repository's root. */
export interface CommitRef {
  ref: string;
  commit: string;
  root: string;
}

/** REF as a commit (`git rev-parse --verify REF^{commit}`); anything else is one line, exit 1. */
export async function resolveCommit(cwd: string, ref: string): Promise<CommitRef> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok) throw new RoleflowError(`${escapeControls(cwd)} is not in a git checkout: a base REF needs the repository's history`, 'usage');
  // `--end-of-options` keeps a REF starting with `-` from being read as an option.
  const sha = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (!sha.ok || ref.trim() === '') {
    throw new RoleflowError(`${JSON.stringify(escapeControls(ref))} is not a commit of this repository (git rev-parse): name a branch, tag or sha that git knows (in CI, fetch it first: actions/checkout with fetch-depth: 0)`, 'usage');
  }
  return { ref, commit: sha.stdout.trim(), root: await realpath(top.stdout.trim()).catch(() => top.stdout.trim()) };
}

/** `abs` as a path from the repository's root (`/`-separated), or undefined when it is outside it. */
export async function pathInRepository(root: string, abs: string): Promise<string | undefined> {
  const real = await realpath(abs).catch(() => resolve(abs));
  const rel = relative(root, real);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || resolve(root, rel) !== resolve(real)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * The files of `commit` under `dir` (a path from the root; '' for all) whose base name `accept`
 * takes, sorted by path. Names starting with a dot and `node_modules` folders are left out, as the
 * work-tree walk leaves them out. A symbolic link is read as the file it names in the same commit;
 * one that leads outside the repository, or to nothing, is an error naming it.
 */
export async function readCommitFiles(cwd: string, at: CommitRef, dir: string, accept: (name: string) => boolean, maxBytes: number): Promise<CommitFile[]> {
  const listed = await git(cwd, ['ls-tree', '-r', '-z', '-l', '--full-tree', at.commit, '--', ...(dir === '' ? [] : [dir])]);
  if (!listed.ok) throw new RoleflowError(`cannot list ${dir || 'the files'} of commit ${at.ref}: ${listed.stderr.trim() || 'git ls-tree failed'}`);
  const entries: { mode: string; object: string; size: number; path: string }[] = [];
  for (const line of listed.stdout.split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+)\t(.*)$/s.exec(line);
    if (!match || match[2] !== 'blob') continue;
    const path = match[5]!;
    const parts = path.split('/');
    const under = dir === '' ? parts : parts.slice(dir.split('/').length);
    if (under.some((p) => p.startsWith('.') || p === 'node_modules') || !accept(parts.at(-1)!)) continue;
    entries.push({ mode: match[1]!, object: match[3]!, size: Number(match[4]), path });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const links = entries.filter((e) => e.mode === '120000');
  const targets = new Map<string, { object: string; size: number }>();
  if (links.length > 0) {
    const linkTexts = (await catBlobs(cwd, links.map((l) => l.object))).map((b) => Buffer.from(b).toString('utf8'));
    for (const [i, link] of links.entries()) {
      const target = posix.normalize(posix.join(posix.dirname(link.path), linkTexts[i]!));
      if (posix.isAbsolute(linkTexts[i]!) || target === '..' || target.startsWith('../')) {
        throw new RoleflowError(`${at.ref}:${link.path} is a symbolic link to ${escapeControls(linkTexts[i]!)}, outside the repository: role files must be in it`, 'invalid_files');
      }
      const object = await objectAt(cwd, at.commit, target);
      if (object === undefined) throw new RoleflowError(`${at.ref}:${link.path} is a symbolic link to ${escapeControls(target)}, which commit ${at.ref} does not hold as a file`, 'invalid_files');
      targets.set(link.path, object);
    }
  }
  const files = entries.map((e) => ({ path: e.path, ...(targets.get(e.path) ?? { object: e.object, size: e.size }) }));
  const small = files.filter((f) => f.size <= maxBytes);
  const bytes = new Map((await catBlobs(cwd, small.map((f) => f.object))).map((b, i) => [small[i]!.path, b]));
  return files.map((f) => ({ path: f.path, size: f.size, ...(bytes.has(f.path) && { bytes: bytes.get(f.path)! }) }));
}

/** One file of `commit` (undefined when the commit has no such file), its bytes when at most `maxBytes`. */
export async function readCommitFile(cwd: string, at: CommitRef, path: string, maxBytes: number): Promise<CommitFile | undefined> {
  const found = await objectAt(cwd, at.commit, path);
  if (found === undefined) return undefined;
  if (found.size > maxBytes) return { path, size: found.size };
  return { path, size: found.size, bytes: (await catBlobs(cwd, [found.object]))[0]! };
}

async function objectAt(cwd: string, commit: string, path: string): Promise<{ object: string; size: number } | undefined> {
  const found = await git(cwd, ['rev-parse', '--verify', '--quiet', `${commit}:${path}`]);
  if (!found.ok) return undefined;
  const object = found.stdout.trim();
  const info = await git(cwd, ['cat-file', '--batch-check=%(objecttype) %(objectsize)'], `${object}\n`);
  const [type, size] = info.stdout.trim().split(' ');
  return info.ok && type === 'blob' ? { object, size: Number(size) } : undefined;
}

/** The contents of blobs, in order, through one `git cat-file --batch`. */
function catBlobs(cwd: string, objects: readonly string[]): Promise<Uint8Array[]> {
  if (objects.length === 0) return Promise.resolve([]);
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => reject(new RoleflowError(`cannot run git: ${error.message}`)));
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      if (code !== 0) return reject(new RoleflowError(`git cat-file exited with ${code}`));
      const out = Buffer.concat(chunks);
      const texts: Uint8Array[] = [];
      let at = 0;
      for (let i = 0; i < objects.length; i++) {
        const eol = out.indexOf(0x0a, at);
        const header = out.subarray(at, eol).toString('latin1').split(' ');
        const size = Number(header[2]);
        if (header[1] === 'missing' || !Number.isInteger(size)) return reject(new RoleflowError(`git has no object ${objects[i]}`));
        texts.push(out.subarray(eol + 1, eol + 1 + size));
        at = eol + 1 + size + 1;
      }
      resolvePromise(texts);
    });
    child.stdin.end(objects.map((o) => `${o}\n`).join(''));
  });
}

function git(cwd: string, args: string[], input?: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = execFile('git', args, { cwd, timeout: 30_000, windowsHide: true, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolvePromise({ ok: error === null, stdout: String(stdout), stderr: String(stderr) });
    });
    // git may exit before reading what it was given: a closed pipe is no error of ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}
