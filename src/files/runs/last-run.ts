import { lstat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { parseLastRun, withLastRun, type LastRunFile, type LastRunRecord } from '../../core/runs/loop/index.js';
import { writeFileAtomic } from '../role-files.js';
import { displayPath, readTextFile } from '../source-files.js';
import { stateFolder, stateFolderOf } from '../state-folder.js';

/**
 * Where the last run is recorded: the file, as messages name it, and its folder. Test ids name
 * their file as seen from the folder roleflow runs in (`cwd`); the file records them as seen from
 * the folder above its own (`base`: beside the config, where a run usually starts), so a run from
 * a subfolder finds the tests another run recorded.
 */
export interface LastRunLocation {
  abs: string;
  display: string;
  folder: string;
  cwd: string;
  base: string;
}

/** `.roleflow/last-run.json` beside the config (in the embedded tenant's state folder). */
export function lastRunFileOf(cwd: string, config: Config): LastRunLocation {
  const folder = stateFolderOf(cwd, config);
  const abs = join(folder, 'last-run.json');
  return { abs, display: displayPath(cwd, abs), folder, cwd, base: dirname(folder) };
}

/** A test id (`file > name`) whose file is seen from `from`, as seen from `to`. */
function rebased(id: string, from: string, to: string): string {
  const at = id.indexOf(' > ');
  return at === -1 ? id : `${displayPath(to, resolve(from, id.slice(0, at)))}${id.slice(at)}`;
}

/** The file's runs with their tests' ids seen from `from` seen from `to` instead. */
function rebasedRuns(file: LastRunFile, from: string, to: string): LastRunFile {
  if (from === to) return file;
  return { ...file, runs: file.runs.map((run) => ({ ...run, not_passed: run.not_passed.map((test) => ({ ...test, id: rebased(test.id, from, to) })) })) };
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
  return rebasedRuns(parsed.value, file.base, file.cwd);
}

/** `record` as its tenant's last run, the others kept (a file that is not one is replaced). */
export async function recordLastRun(file: LastRunLocation, record: LastRunRecord): Promise<void> {
  const before = await readLastRun(file).catch(() => undefined);
  await stateFolder(file.folder, "roleflow's state folder");
  try {
    const recorded = rebasedRuns(withLastRun(before, record), file.cwd, file.base);
    await writeFileAtomic(file.abs, `${JSON.stringify(recorded, null, 2)}\n`);
  } catch (err) {
    throw new RoleflowError(`cannot write ${file.display}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
