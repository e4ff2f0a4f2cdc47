import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../core/config/config.js';
import { RoleflowError } from '../core/errors.js';
import { configRelative } from './config-file.js';

/**
 * roleflow's own state beside the config: the folder of the embedded tenant's data file
 * (`local.data`, default `.roleflow/`), which also holds `last-run.json`.
 */
export function stateFolderOf(cwd: string, config: Config): string {
  return dirname(configRelative(cwd, config, config.local.data));
}

/**
 * Make `dir` (and the folders above it) for roleflow's own state: the embedded tenant's data, the
 * apply journal, the last run. A `.roleflow/` folder made here gets a `.gitignore` of its own, so
 * a fresh clone's state is never committed by accident. `what` names the folder in an error.
 */
export async function stateFolder(dir: string, what: string): Promise<void> {
  let made: string | undefined;
  try {
    made = await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new RoleflowError(`cannot create ${what} ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (made === undefined) return;
  // The folders made are `made` and those below it on the way to `dir`.
  for (let at = resolve(dir); at.length >= resolve(made).length; at = dirname(at)) {
    if (basename(at) !== '.roleflow') continue;
    await writeFile(join(at, '.gitignore'), "# State of roleflow's embedded tenant, its apply journal and the last run: local only.\n*\n").catch(() => undefined);
    return;
  }
}
