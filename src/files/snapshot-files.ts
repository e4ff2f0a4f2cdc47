import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Result } from '../core/errors.js';
import { parseSnapshotFile, renderSnapshotFile, SNAPSHOT_DIR, snapshotFileName, type SnapshotEntries } from '../core/flows/index.js';
import type { TextFileKind } from '../core/text/text-file.js';
import { writeFileAtomic } from './role-files.js';
import { readTextFile, type SourceFile } from './source-files.js';

const SNAPSHOT_FILE: TextFileKind = { maxBytes: 16 * 1024 * 1024, noun: 'a snapshot file', holds: 'YAML text' };

/** `__snapshots__/<name>.snap.yaml` beside a flow file, as an absolute path and as shown. */
export function snapshotFileOf(flow: SourceFile): SourceFile {
  const name = snapshotFileName(basename(flow.abs));
  const shownDir = flow.file.includes('/') ? `${flow.file.slice(0, flow.file.lastIndexOf('/'))}/` : '';
  return { abs: join(dirname(flow.abs), SNAPSHOT_DIR, name), file: `${shownDir}${SNAPSHOT_DIR}/${name}` };
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
