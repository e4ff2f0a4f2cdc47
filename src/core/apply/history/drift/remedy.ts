import { shellWord } from '../../../roles/display.js';
import type { DriftStatus } from './classify.js';

/**
 * The commands that settle a Role, in words: `apply` puts the files back on the tenant, `pull` takes
 * the tenant's version into the files. `inFiles` false: no role file holds it, so putting the files
 * back deletes it, which `apply` does only with `--prune`, and (its target matching no role file)
 * with `--allow-empty-prune`.
 */
export function driftRemedy(status: DriftStatus, tenant: string, name: string, inFiles = true): string | undefined {
  const t = `--tenant ${shellWord(tenant)} --target ${shellWord(name)}`;
  const prune = '--prune --allow-empty-prune';
  const apply = `roleflow apply ${t}${inFiles ? '' : ` ${prune}`}`;
  switch (status) {
    case 'in_sync':
      return undefined;
    case 'pending':
      return `${apply} applies the files`;
    case 'drifted':
      return `${apply} reverts the tenant to the files; roleflow pull ${t} --force adopts the tenant's version into the files (for a pull request)`;
    case 'conflict':
      return `roleflow plan ${t}${inFiles ? '' : ' --prune'} shows both; ${apply} keeps the files' version, roleflow pull ${t} --force the tenant's`;
    case 'created_outside':
      return `roleflow pull ${t} adopts it into the files; roleflow apply ${t} ${prune} deletes it`;
    case 'deleted_outside':
      return `roleflow apply ${t} creates it again; or delete its role file to let it go`;
    case 'unclassified':
      return `roleflow plan ${t} shows the difference (the journal has no record yet: apply once to start it)`;
  }
}
