import { hash } from 'node:crypto';
import { statSync, watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
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

/** What a file holds, as a digest; null when there is no file. */
export async function digestOf(abs: string): Promise<string | null> {
  const bytes = await readFile(abs).catch(() => null);
  return bytes === null ? null : hash('sha1', bytes);
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
      err(`warning: cannot watch ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return watchers;
}

function statSyncIsDir(path: string): boolean {
  return statSync(path).isDirectory();
}
