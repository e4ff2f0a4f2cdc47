import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { RoleflowError } from '../core/errors.js';

/**
 * Make `dir` (and the folders above it) for roleflow's own state: the embedded tenant's data, the
 * apply journal. A `.roleflow/` folder made here gets a `.gitignore` of its own, so a fresh
 * clone's state is never committed by accident. `what` names the folder in an error.
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
    await writeFile(join(at, '.gitignore'), "# State of roleflow's embedded tenant and its apply journal: local only.\n*\n").catch(() => undefined);
    return;
  }
}
