import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { configRelative } from '../config-file.js';

/**
 * roleflow's own state beside the config: the folder of the embedded tenant's data file
 * (`local.data`, default `.roleflow/`), which also holds `last-run.json`.
 */
export function stateFolderOf(cwd: string, config: Config): string {
  return dirname(configRelative(cwd, config, config.local.data));
}

/**
 * The state folder, made when missing. A `.roleflow/` folder made here gets a `.gitignore` of its
 * own, so the state of a fresh clone (the local tenant, the last run) is never committed.
 */
export async function ensureStateFolder(dir: string): Promise<void> {
  let made: string | undefined;
  try {
    made = await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new RoleflowError(`cannot create roleflow's state folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (made !== undefined && basename(dir) === '.roleflow') {
    await writeFile(join(dir, '.gitignore'), '# State of roleflow\'s embedded tenant and last run: local only.\n*\n').catch(() => undefined);
  }
}
