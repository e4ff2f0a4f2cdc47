import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { parseLastRun, withLastRun, type LastRunFile, type LastRunRecord } from '../../core/runs/loop/index.js';
import { writeFileAtomic } from '../role-files.js';
import { displayPath, readTextFile } from '../source-files.js';
import { stateFolder, stateFolderOf } from '../state-folder.js';

/** Where the last run is recorded: the file, as messages name it, and its folder. */
export interface LastRunLocation {
  abs: string;
  display: string;
  folder: string;
}

/** `.roleflow/last-run.json` beside the config (in the embedded tenant's state folder). */
export function lastRunFileOf(cwd: string, config: Config): LastRunLocation {
  const folder = stateFolderOf(cwd, config);
  const abs = join(folder, 'last-run.json');
  return { abs, display: displayPath(cwd, abs), folder };
}

/** Far above the record of any real suite's failures; read within it, as every file roleflow reads. */
const LAST_RUN_FILE: TextFileKind = { maxBytes: 64 * 1024 * 1024, noun: 'a last-run record', holds: 'JSON text' };

/** The last runs recorded; undefined when none is. A file that is not one is an error naming it. */
export async function readLastRun(file: LastRunLocation): Promise<LastRunFile | undefined> {
  const missing = await lstat(file.abs).then(() => false, (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
  if (missing) return undefined;
  const read = await readTextFile({ abs: file.abs, file: file.display }, LAST_RUN_FILE);
  if (!read.ok) throw new InvalidFilesError(read.issues);
  const text = read.value;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = parseLastRun(value, file.display);
  if (!parsed.ok) throw new RoleflowError(parsed.error, 'invalid_files');
  return parsed.value;
}

/** `record` as its tenant's last run, the others kept (a file that is not one is replaced). */
export async function recordLastRun(file: LastRunLocation, record: LastRunRecord): Promise<void> {
  const before = await readLastRun(file).catch(() => undefined);
  await stateFolder(file.folder, "roleflow's state folder");
  try {
    await writeFileAtomic(file.abs, `${JSON.stringify(withLastRun(before, record), null, 2)}\n`);
  } catch (err) {
    throw new RoleflowError(`cannot write ${file.display}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
