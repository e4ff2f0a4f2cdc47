import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Config } from '../core/config/config.js';
import { RoleflowError } from '../core/errors.js';
import { historyFileName, type JournalStore } from '../core/apply/history/index.js';
import { configRelative } from './config-file.js';
import { displayPath } from './source-files.js';
import { stateFolder } from './state-folder.js';

/** The journal's folder, relative to the config file's folder. */
export const HISTORY_DIR = '.roleflow/history';

/**
 * `history.store: file`: `.roleflow/history/<tenant>.jsonl` beside the config. Each append is one
 * `write(2)` on a descriptor opened with `O_APPEND`, then `fsync`: the kernel moves to the end and
 * writes in one step, so lines from two processes never interleave and a killed process leaves
 * whole lines (on a local file system; a network one may not keep that promise). A write that
 * comes up short (a full disk) is an error, and readers skip a line cut short.
 */
export function fileJournal(cwd: string, config: Config, tenant: string): JournalStore & { path: string } {
  const path = configRelative(cwd, config, `${HISTORY_DIR}/${historyFileName(tenant)}`);
  const where = displayPath(cwd, path);
  return {
    kind: 'file',
    where,
    path,
    async read() {
      try {
        return await readFile(path, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return '';
        throw new RoleflowError(`cannot read the apply journal ${where}: ${code ?? String(err)}`);
      }
    },
    async append(text) {
      const bytes = Buffer.from(text, 'utf8');
      await stateFolder(dirname(path), 'the apply journal\'s folder');
      try {
        const file = await open(path, 'a');
        try {
          const { bytesWritten } = await file.write(bytes, 0, bytes.length);
          if (bytesWritten !== bytes.length) throw Object.assign(new Error(`wrote ${bytesWritten} of ${bytes.length} bytes`), { code: 'ESHORT' });
          await file.sync();
        } finally {
          await file.close();
        }
      } catch (err) {
        throw new RoleflowError(`cannot write the apply journal ${where}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
    },
  };
}
