import { availableParallelism } from 'node:os';
import type { Result } from '../core/errors.js';
import type { TextFileKind } from '../core/text-file.js';
import { readTextFileSync, type SourceFile } from './bounded-read.js';
import type { ThreadOptions } from './read-ahead-threads.js';

/**
 * Reading many small files with a worker thread reading ahead. For each file, the worker does what
 * `readTextFileSync` does first on this thread (open without blocking, one read of up to
 * `QUICK_READ_BYTES` from the start, close) and hands over the bytes in batches; this thread
 * decodes and checks them exactly as it would have (`decodeSmall`), and reads a file itself the
 * general way whenever the worker's read was not a whole file within the limit (empty, large,
 * unreadable, not seen as a file). So the texts and the refusals are the same either way; only the
 * system calls (most of the time of reading 100,000 role files) are made on the other thread,
 * while this one parses what has already arrived.
 */

/**
 * Below this many files, this thread reads them all before a worker has started (~35 ms): `validate`
 * of 10,000 role files took 1.13x as long with a worker, of 25,000 0.88x (2 cores).
 */
export const READ_AHEAD_MIN_FILES = 20_000;

interface ReadOptions extends ThreadOptions {
  minFiles?: number;
  /** Worker threads (`readers()`, asked only for a folder that large); 0 reads on this thread. */
  threads?: number;
}

/**
 * The files' texts (or why one cannot be read), in the files' order, in batches: one batch read on
 * this thread below `minFiles`, else the worker's batches as they come.
 */
export async function* readTextFiles(
  sources: readonly SourceFile[],
  kind: TextFileKind,
  { minFiles = READ_AHEAD_MIN_FILES, threads, ...options }: ReadOptions = {},
): AsyncGenerator<Result<string>[]> {
  const onThisThread = () => sources.map((source) => readTextFileSync(source, kind));
  const count = sources.length === 0 || sources.length < minFiles ? 0 : (threads ?? readers());
  if (count === 0) {
    yield onThisThread();
    return;
  }
  const { ReadAhead } = await import('./read-ahead-threads.js');
  let reader: InstanceType<typeof ReadAhead>;
  try {
    reader = new ReadAhead(sources, kind, count, options);
  } catch {
    // No thread to be had (a process or thread limit, a permission): read here, as below the threshold.
    yield onThisThread();
    return;
  }
  try {
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) yield batch;
  } finally {
    await reader.stop();
  }
}

/**
 * How many threads read: one core is left to this thread, which decodes and parses what they
 * read; on one core, none (a thread would only take turns with this one). On two cores one
 * worker was as quick as two, with less memory and CPU time.
 */
function readers(): number {
  return Math.max(0, Math.min(2, availableParallelism() - 1));
}
