import { shellWord } from '../../../roles/display.js';
import type { DriftStatus } from './classify.js';

/** The commands that settle a Role, in words: `apply` puts the files back on the tenant, `pull` takes the tenant's version into the files. */
export function driftRemedy(status: DriftStatus, tenant: string, name: string): string | undefined {
  const t = `--tenant ${shellWord(tenant)} --target ${shellWord(name)}`;
  switch (status) {
    case 'in_sync':
      return undefined;
    case 'pending':
      return `roleflow apply ${t} applies the files`;
    case 'drifted':
      return `roleflow apply ${t} reverts the tenant to the files; roleflow pull ${t} --force adopts the tenant's version into the files (for a pull request)`;
    case 'conflict':
      return `roleflow plan ${t} shows both; roleflow apply ${t} keeps the files' version, roleflow pull ${t} --force the tenant's`;
    case 'created_outside':
      return `roleflow pull ${t} adopts it into the files; roleflow apply ${t} --prune deletes it`;
    case 'deleted_outside':
      return `roleflow apply ${t} creates it again; or delete its role file to let it go`;
    case 'unclassified':
      return `roleflow plan ${t} shows the difference (the journal has no record yet: apply once to start it)`;
  }
}
