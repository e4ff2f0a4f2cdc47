import { createHash } from 'node:crypto';
import { createReadStream, statSync, watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { safeText } from '../../core/text/safe-text.js';
import { listFilesUnder } from '../source-files.js';

/** What `test --watch` reads of the file system: the files watched, what they hold, their saves. */

/** Every file under the folders (and the files) given, as absolute paths. */
export async function filesUnder(cwd: string, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const kind = await stat(path).catch(() => undefined);
    if (kind?.isDirectory()) {
      found.push(...(await listFilesUnder(cwd, path, () => true).catch(() => [])).map((f) => f.abs));
      // Snapshot folders start with two underscores, not a dot: listFilesUnder walks them.
    } else if (kind?.isFile()) found.push(path);
  }
  return found;
}

/**
 * What a file holds, as a digest; null when there is no regular file there (a FIFO is never waited
 * on) or it cannot be read. Read piece by piece: a file of any size.
 */
export async function digestOf(abs: string): Promise<string | null> {
  if (!(await stat(abs).catch(() => undefined))?.isFile()) return null;
  const digest = createHash('sha1');
  try {
    for await (const chunk of createReadStream(abs)) digest.update(chunk as Buffer);
  } catch {
    return null;
  }
  return digest.digest('hex');
}

/**
 * Watches on the folders (recursively) and on the folder of each file given; every path saved
 * under them goes to `onSave`. A path that cannot be watched is said once.
 */
export function startWatchers(paths: readonly string[], onSave: (abs: string) => void, err: (line: string) => void): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    let dir = path;
    let recursive = true;
    try {
      if (!statSyncIsDir(path)) [dir, recursive] = [dirname(path), false];
    } catch {
      continue;
    }
    if (seen.has(`${dir}\u0000${recursive}`)) continue;
    seen.add(`${dir}\u0000${recursive}`);
    try {
      const watcher = watch(dir, { recursive }, (_event, name) => {
        if (name) onSave(resolve(dir, name.toString()));
      });
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch (error) {
      err(`warning: cannot watch ${safeText(dir)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return watchers;
}

function statSyncIsDir(path: string): boolean {
  return statSync(path).isDirectory();
}
