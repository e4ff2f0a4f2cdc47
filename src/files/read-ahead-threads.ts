import { Worker } from 'node:worker_threads';
import type { Result } from '../core/errors.js';
import type { TextFileKind } from '../core/text-file.js';
import { decodeSmall, QUICK_READ_BYTES, QUICK_READ_FLAGS, readTextFileSync, type SourceFile } from './bounded-read.js';

/**
 * The worker threads of `read-ahead.ts`, loaded only for a folder large enough to use them (loading
 * node:worker_threads costs every command that reads files 2–4 ms of start-up).
 */

export interface ThreadOptions {
  /** `MAX_BYTES_IN_FLIGHT` and `BATCH_FILES` (tests make them small). */
  maxBytesInFlight?: number;
  batchFiles?: number;
  /** The worker's script (tests give one that fails). */
  workerSource?: string;
  /** Counts, for tests: files whose bytes a worker read. */
  stats?: { fromWorkers: number };
}

/** Files a batch holds: the workers take turns, batch by batch, so the batches come in the files' order. */
const BATCH_FILES = 512;
/** Bytes a worker has handed over and this thread not yet decoded, at most: beyond that it waits, so memory stays bounded. */
const MAX_BYTES_IN_FLIGHT = 8 * 1024 * 1024;

/** What a worker posts: which batch, the bytes of its files, and where each ends in them (-1: read it on this thread). */
interface Batch {
  index: number;
  bytes: ArrayBuffer;
  ends: Int32Array;
}

export class ReadAhead {
  private readonly workers: Worker[] = [];
  private readonly maxBytesInFlight: number;
  private readonly batchFiles: number;
  private readonly stats: ThreadOptions['stats'];
  /** Per worker, the bytes it handed over that are not decoded yet. */
  private readonly inFlight: Int32Array;
  private readonly arrived: Batch[][] = [];
  /** Index of the next file to hand out; the next batch is the `at / batchFiles`th. */
  private at = 0;
  /** A worker ended before its last batch (it failed, or could not start): this thread reads the rest. */
  private broken = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly sources: readonly SourceFile[],
    private readonly kind: TextFileKind,
    count: number,
    { maxBytesInFlight = MAX_BYTES_IN_FLIGHT, batchFiles = BATCH_FILES, workerSource = WORKER_SOURCE, stats }: ThreadOptions,
  ) {
    this.maxBytesInFlight = maxBytesInFlight;
    this.batchFiles = batchFiles;
    this.stats = stats;
    this.inFlight = new Int32Array(new SharedArrayBuffer(4 * count));
    // The paths as one string: one copy to each thread, rather than one clone per path. A file not
    // seen as a file by the walk (one named on the command line) is read here only: no path for it.
    const paths = sources.map((s) => (s.seenAsFile === true ? s.abs : '')).join('\0');
    const wake = (): void => {
      this.wake?.();
      this.wake = undefined;
    };
    try {
      for (let k = 0; k < count; k++) {
        const workerData = { paths, first: k, step: count, batchFiles, maxBytes: kind.maxBytes, flags: QUICK_READ_FLAGS, readBytes: QUICK_READ_BYTES, maxInFlight: maxBytesInFlight, inFlight: this.inFlight };
        // No options of this process (a profiler, preloaded modules): the script needs none.
        const worker = new Worker(workerSource, { eval: true, workerData, execArgv: [] });
        const arrived: Batch[] = [];
        this.arrived.push(arrived);
        this.workers.push(worker);
        worker.on('message', (batch: Batch) => {
          arrived.push(batch);
          wake();
        });
        // A failed worker also exits: what it still owed is decided there. (An 'error' with no listener would end the process.)
        worker.on('error', wake);
        worker.on('messageerror', () => {
          this.broken = true;
          wake();
        });
        worker.on('exit', () => {
          // Ended before the batches it owed were all taken: whatever is missing is read here.
          if (this.ownsMore(k, arrived.length)) this.broken = true;
          wake();
        });
      }
    } catch (error) {
      void this.stop();
      throw error;
    }
  }

  /** Whether worker `k`, with `queued` batches waiting, still owed batches from the next one on. */
  private ownsMore(k: number, queued: number): boolean {
    let owed = 0;
    for (let b = Math.ceil(this.at / this.batchFiles); b * this.batchFiles < this.sources.length; b++) if (b % this.workers.length === k) owed++;
    return owed > queued;
  }

  /** The next files' texts; undefined when every file has been handed out. */
  async next(): Promise<Result<string>[] | undefined> {
    if (this.at >= this.sources.length) return undefined;
    const index = this.at / this.batchFiles;
    const k = index % this.workers.length;
    const arrived = this.arrived[k]!;
    while (arrived.length === 0 && !this.broken) await new Promise<void>((resolve) => (this.wake = resolve));
    const batch = arrived.shift();
    // Never a batch for other files than these: one that is not the one expected means a lost message.
    if (batch !== undefined && (batch.index !== index || batch.ends.length !== Math.min(this.batchFiles, this.sources.length - this.at))) this.broken = true;
    if (batch === undefined || this.broken) {
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
      else {
        texts.push(decodeSmall(Buffer.from(bytes, start, end - start), source.file, this.kind));
        if (this.stats) this.stats.fromWorkers++;
      }
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
 * most `maxBytes` (a whole, small file), else marked -1, as is a file with no path (read on the
 * main thread only). Before each file it waits while the bytes it handed over and not yet taken,
 * with the batch it is filling, pass `maxInFlight`; a batch alone may pass it (up to `batchFiles`
 * files just under `readBytes`), so a worker holds at most about twice that, or one large batch.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const { paths, first, step, batchFiles, maxBytes, flags, readBytes, maxInFlight, inFlight } = workerData;
const list = paths.split('\\0');
const scratch = new Uint8Array(readBytes);
const readOne = (path) => {
  if (path === '') return -1;
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
const waitForRoom = (more) => {
  for (let n = Atomics.load(inFlight, first); n > 0 && n + more > maxInFlight; n = Atomics.load(inFlight, first)) Atomics.wait(inFlight, first, n);
};
// The buffer a batch is read into, grown when a batch needs more (and let go after an unusually
// large one); each batch is handed over as a copy of exactly its bytes.
const usualBytes = batchFiles * 1024;
let bytes = new Uint8Array(usualBytes);
for (let index = first; index * batchFiles < list.length; index += step) {
  const ends = new Int32Array(Math.min(batchFiles, list.length - index * batchFiles));
  let used = 0;
  for (let i = 0; i < ends.length; i++) {
    waitForRoom(used);
    const n = readOne(list[index * batchFiles + i]);
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
  Atomics.add(inFlight, first, used);
  parentPort.postMessage({ index, bytes: sent, ends }, [sent, ends.buffer]);
  if (bytes.length > 4 * usualBytes) bytes = new Uint8Array(usualBytes);
}
`;
