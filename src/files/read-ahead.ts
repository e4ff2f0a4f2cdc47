import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Result } from '../core/errors.js';
import type { TextFileKind } from '../core/text-file.js';
import { decodeSmall, QUICK_READ_BYTES, QUICK_READ_FLAGS, readTextFileSync, type SourceFile } from './bounded-read.js';

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

interface ReadOptions {
  minFiles?: number;
  /** Worker threads (`readers()`); 0 reads on this thread. */
  threads?: number;
  /** `MAX_BYTES_IN_FLIGHT` (tests make it small). */
  maxBytesInFlight?: number;
}

/**
 * The files' texts (or why one cannot be read), in the files' order, in batches: one batch read on
 * this thread below `minFiles`, else the worker's batches as they come.
 */
export async function* readTextFiles(
  sources: readonly SourceFile[],
  kind: TextFileKind,
  { minFiles = READ_AHEAD_MIN_FILES, threads = readers(), maxBytesInFlight = MAX_BYTES_IN_FLIGHT }: ReadOptions = {},
): AsyncGenerator<Result<string>[]> {
  if (sources.length < minFiles || threads === 0) {
    yield sources.map((source) => readTextFileSync(source, kind));
    return;
  }
  const reader = new ReadAhead(sources, kind, threads, maxBytesInFlight);
  try {
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) yield batch;
  } finally {
    await reader.stop();
  }
}

/** Files a batch holds: the workers take turns, batch by batch, so the batches come in the files' order. */
const BATCH_FILES = 512;
/** Bytes a worker has handed over and this thread not yet decoded, at most: beyond that it waits, so memory stays bounded. */
const MAX_BYTES_IN_FLIGHT = 8 * 1024 * 1024;

/**
 * How many threads read: one core is left to this thread, which decodes and parses what they
 * read; on one core, none (a thread would only take turns with this one). On two cores one
 * worker was as quick as two, with less memory and CPU time.
 */
function readers(): number {
  return Math.max(0, Math.min(2, availableParallelism() - 1));
}

/** What a worker posts: the bytes of a batch of files, and where each ends in them (-1: read it on this thread). */
interface Batch {
  bytes: ArrayBuffer;
  ends: Int32Array;
}

class ReadAhead {
  private readonly workers: Worker[] = [];
  /** Per worker, the bytes it handed over that are not decoded yet. */
  private readonly inFlight: Int32Array;
  private readonly arrived: Batch[][] = [];
  /** Index of the next file to hand out; the next batch is the `at / BATCH_FILES`th. */
  private at = 0;
  /** A worker ended before its last batch (it failed, or could not start): this thread reads the rest. */
  private broken = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly sources: readonly SourceFile[],
    private readonly kind: TextFileKind,
    count: number,
    private readonly maxBytesInFlight: number,
  ) {
    this.inFlight = new Int32Array(new SharedArrayBuffer(4 * count));
    // The paths as one string: one copy to each thread, rather than one clone per path.
    const paths = sources.map((s) => s.abs).join('\0');
    const wake = (): void => {
      this.wake?.();
      this.wake = undefined;
    };
    for (let k = 0; k < count; k++) {
      const workerData = { paths, first: k, step: count, batchFiles: BATCH_FILES, maxBytes: kind.maxBytes, flags: QUICK_READ_FLAGS, readBytes: QUICK_READ_BYTES, maxInFlight: maxBytesInFlight, inFlight: this.inFlight };
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
      const arrived: Batch[] = [];
      this.arrived.push(arrived);
      this.workers.push(worker);
      worker.on('message', (batch: Batch) => {
        arrived.push(batch);
        wake();
      });
      worker.on('error', () => {
        this.broken = true;
        wake();
      });
      worker.on('exit', () => {
        // Ended before the batches it owed were all taken: whatever is missing is read here.
        if (this.ownsMore(k, arrived.length)) this.broken = true;
        wake();
      });
    }
  }

  /** Whether worker `k`, with `queued` batches waiting, still owed batches from the next one on. */
  private ownsMore(k: number, queued: number): boolean {
    let owed = 0;
    for (let b = Math.ceil(this.at / BATCH_FILES); b * BATCH_FILES < this.sources.length; b++) if (b % this.workers.length === k) owed++;
    return owed > queued;
  }

  /** The next files' texts; undefined when every file has been handed out. */
  async next(): Promise<Result<string>[] | undefined> {
    if (this.at >= this.sources.length) return undefined;
    const k = (this.at / BATCH_FILES) % this.workers.length;
    const arrived = this.arrived[k]!;
    while (arrived.length === 0 && !this.broken) await new Promise<void>((resolve) => (this.wake = resolve));
    const batch = arrived.shift();
    if (batch === undefined) {
      // Whatever the workers did not hand over is read here, as if there had been none.
      const rest = this.sources.slice(this.at).map((source) => readTextFileSync(source, this.kind));
      this.at = this.sources.length;
      return rest;
    }
    Atomics.sub(this.inFlight, k, batch.bytes.byteLength);
    Atomics.notify(this.inFlight, k);
    return this.decode(batch);
  }

  private decode({ bytes, ends }: Batch): Result<string>[] {
    const texts: Result<string>[] = [];
    let start = 0;
    for (let i = 0; i < ends.length; i++) {
      const source = this.sources[this.at++]!;
      const end = ends[i]!;
      if (end < 0 || source.seenAsFile !== true) texts.push(readTextFileSync(source, this.kind));
      else texts.push(decodeSmall(Buffer.from(bytes, start, end - start), source.file, this.kind));
      if (end >= 0) start = end;
    }
    return texts;
  }

  async stop(): Promise<void> {
    // A worker waiting for room would wait for ever: give it room, then end it.
    for (let k = 0; k < this.workers.length; k++) {
      Atomics.store(this.inFlight, k, -this.maxBytesInFlight);
      Atomics.notify(this.inFlight, k);
    }
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

/**
 * A worker, as a script of its own (no file to find beside the bundle): batches `first`,
 * `first + step`, … of `batchFiles` files each; for each file, in order, open, one read from the
 * start, close. A file is taken when that read gave more than none, less than `readBytes` and at
 * most `maxBytes` (a whole, small file), else marked -1.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const { paths, first, step, batchFiles, maxBytes, flags, readBytes, maxInFlight, inFlight } = workerData;
const list = paths.split('\\0');
const scratch = new Uint8Array(readBytes);
const readOne = (path) => {
  try {
    const fd = openSync(path, flags);
    try {
      return readSync(fd, scratch, 0, readBytes, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return -1;
  }
};
// One buffer the batches are read into, grown when a batch needs more; each is handed over as a copy
// of exactly its bytes, so what the main thread holds (and its collector counts) is the files' size.
let bytes = new Uint8Array(batchFiles * 1024);
for (let b = first; b * batchFiles < list.length; b += step) {
  const ends = new Int32Array(Math.min(batchFiles, list.length - b * batchFiles));
  let used = 0;
  for (let i = 0; i < ends.length; i++) {
    const n = readOne(list[b * batchFiles + i]);
    if (n > 0 && n < readBytes && n <= maxBytes) {
      if (used + n > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, used + n));
        grown.set(bytes.subarray(0, used));
        bytes = grown;
      }
      bytes.set(scratch.subarray(0, n), used);
      used += n;
      ends[i] = used;
    } else ends[i] = -1;
  }
  const sent = bytes.slice(0, used).buffer;
  parentPort.postMessage({ bytes: sent, ends }, [sent, ends.buffer]);
  for (let n = Atomics.add(inFlight, first, used) + used; n > maxInFlight; n = Atomics.load(inFlight, first)) Atomics.wait(inFlight, first, n);
}
`;
