import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RoleflowError, type Issue } from '../core/errors.js';
import type { SourceFile } from './bounded-read.js';
import type { SourceDir } from './source-files.js';

/**
 * Role files that resolve outside the repository are refused (PRODUCT.md "Security"): a committed
 * symbolic link to a file elsewhere would make the Roles depend on what no commit holds, and would
 * let a repository read any file of the machine that runs roleflow into a Role. The repository is
 * the git work tree holding the folder (the nearest folder above it with a `.git`); outside git,
 * the folder itself. Only links can lead out: the walk follows no linked folder
 * (`listFilesUnder`), so a folder inside the repository holds only files inside it.
 *
 * Returns one issue per file that leads out, located at the file; throws when the folder itself
 * resolves outside the repository (a linked roles folder).
 */
export async function outsideRepository(dir: SourceDir, sources: readonly SourceFile[], noun: string): Promise<Issue[]> {
  const realDir = await realpath(dir.abs).catch(() => dir.abs);
  const links = sources.filter((s) => s.link === true);
  // Nothing can lead out: no link among the files, and none on the way to the folder.
  if (links.length === 0 && realDir === resolve(dir.abs)) return [];
  const top = await gitTop(resolve(dir.abs));
  const root = await realpath(top ?? dir.abs).catch(() => top ?? dir.abs);
  const where = top === undefined ? `${dir.display}/` : 'the repository';
  if (!inside(root, realDir)) {
    throw new RoleflowError(`${dir.display} resolves to ${realDir}, outside the repository ${top}: roleflow reads no ${noun} file from outside it; keep the ${noun} files in the repository`, 'failed');
  }
  const issues: Issue[] = [];
  for (const link of links) {
    const target = await realpath(link.abs).catch(() => undefined);
    if (target === undefined || inside(root, target)) continue;
    issues.push({
      file: link.file,
      line: 1,
      col: 1,
      message: `a symbolic link to ${target}, outside ${where}: roleflow reads no ${noun} file from outside it; put the file itself in ${where}`,
    });
  }
  return issues;
}

/** The nearest folder at or above `path` that holds `.git` (a folder, or a file in a linked work tree). */
async function gitTop(path: string): Promise<string | undefined> {
  for (let at = path; ; ) {
    if (await exists(join(at, '.git'))) return at;
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
