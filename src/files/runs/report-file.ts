import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { RoleflowError } from '../../core/errors.js';

/** Write (or, `append`, add to) a report file, its folders created; `file` names it in the error. */
export async function writeReportFile(abs: string, file: string, text: string, append = false): Promise<void> {
  try {
    await mkdir(dirname(abs), { recursive: true });
    await (append ? appendFile : writeFile)(abs, text, 'utf8');
  } catch (error) {
    throw new RoleflowError(`cannot write report ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Of `files` (named from `cwd`), those that exist and are not regular files — `/dev/null`, a pipe,
 * a terminal — which a run over several tenants writes as they are, not one per tenant.
 */
export async function notRegularFiles(cwd: string, files: readonly string[]): Promise<Set<string>> {
  const found = await Promise.all(files.map(async (file) => ((await stat(resolve(cwd, file)).catch(() => undefined))?.isFile() === false ? [file] : [])));
  return new Set(found.flat());
}
