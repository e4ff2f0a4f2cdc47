import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RoleflowError } from '../core/errors.js';

/** Write (or, `append`, add to) a report file, its folders created; `file` names it in the error. */
export async function writeReportFile(abs: string, file: string, text: string, append = false): Promise<void> {
  try {
    await mkdir(dirname(abs), { recursive: true });
    await (append ? appendFile : writeFile)(abs, text, 'utf8');
  } catch (error) {
    throw new RoleflowError(`cannot write report ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
