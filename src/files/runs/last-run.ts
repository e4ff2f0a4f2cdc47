import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { parseLastRun, withLastRun, type LastRunFile, type LastRunRecord } from '../../core/runs/loop/index.js';
import { writeFileAtomic } from '../role-files.js';
import { displayPath } from '../source-files.js';
import { ensureStateFolder, stateFolderOf } from './state-folder.js';

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

/** The last runs recorded; undefined when none is. A file that is not one is an error naming it. */
export async function readLastRun(file: LastRunLocation): Promise<LastRunFile | undefined> {
  let text: string;
  try {
    text = await readFile(file.abs, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new RoleflowError(`cannot read ${file.display}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
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
  await ensureStateFolder(file.folder);
  try {
    await writeFileAtomic(file.abs, `${JSON.stringify(withLastRun(before, record), null, 2)}\n`);
  } catch (err) {
    throw new RoleflowError(`cannot write ${file.display}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
