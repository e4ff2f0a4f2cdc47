import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Issue, Result } from '../../core/errors.js';
import { escapeControls } from '../../core/text/safe-text.js';
import { parseSnapshotFile, renderSnapshotFile, SNAPSHOT_DIR, snapshotFileName, type SnapshotEntries } from '../../core/flows/index.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { writeFileAtomic } from '../role-files.js';
import { readTextFile, type SourceFile } from '../source-files.js';

const SNAPSHOT_FILE: TextFileKind = { maxBytes: 16 * 1024 * 1024, noun: 'a snapshot file', holds: 'YAML text' };

/** `__snapshots__/<name>.snap.yaml` beside a flow file, as an absolute path and as shown. */
export function snapshotFileOf(flow: SourceFile): SourceFile {
  const name = snapshotFileName(basename(flow.abs));
  const shownDir = flow.file.includes('/') ? `${flow.file.slice(0, flow.file.lastIndexOf('/'))}/` : '';
  return { abs: join(dirname(flow.abs), SNAPSHOT_DIR, name), file: `${shownDir}${SNAPSHOT_DIR}/${name}` };
}

/**
 * The repository a run's snapshots belong to: the nearest folder from `cwd` up that holds `.git`,
 * else `cwd` itself.
 */
export async function repositoryRoot(cwd: string): Promise<string> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (await stat(join(dir, '.git')).then(() => true, () => false)) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/**
 * A snapshot folder or file that a symbolic link leads out of `root`: an issue at the snapshot
 * file, for nothing is read or written there (a link inside the repository is followed).
 */
export async function snapshotLinkIssue(file: SourceFile, root: string): Promise<Issue | undefined> {
  const realRoot = await realpath(root).catch(() => resolve(root));
  for (const path of [dirname(file.abs), file.abs]) {
    const real = await realpath(path).catch(() => undefined);
    // Not there yet: it is made where it is named. There and no link on the way: it is where it is named.
    if (real === undefined || real === path) continue;
    if (real === realRoot || real.startsWith(realRoot + sep)) continue;
    const what = path === file.abs ? file.file : `${file.file.slice(0, file.file.lastIndexOf('/') + 1) || './'}`;
    return { file: file.file, line: 1, col: 1, message: `${escapeControls(what)} is a symbolic link to ${escapeControls(real)}, outside the repository (${escapeControls(realRoot)}): snapshots are neither read nor written through it` };
  }
  return undefined;
}

/** The snapshots stored for a flow file; none when the file does not exist. */
export async function readSnapshotFile(file: SourceFile): Promise<Result<Map<string, unknown>>> {
  const exists = await stat(file.abs).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== 'ENOENT',
  );
  if (!exists) return { ok: true, value: new Map() };
  const text = await readTextFile(file, SNAPSHOT_FILE);
  if (!text.ok) return text;
  return parseSnapshotFile(text.value, file.file);
}

/** Write the file whole (atomically); with no entries left, remove it. */
export async function writeSnapshotFile(file: SourceFile, entries: SnapshotEntries, flowFile: string): Promise<void> {
  if (entries.size === 0) {
    await rm(file.abs, { force: true });
    return;
  }
  await mkdir(dirname(file.abs), { recursive: true });
  await writeFileAtomic(file.abs, renderSnapshotFile(entries, flowFile));
}
