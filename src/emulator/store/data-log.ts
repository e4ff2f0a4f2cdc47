import { closeSync, fdatasync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RoleflowError } from '../../core/errors.js';
import { logPath } from './data-file.js';
import type { RoleChange } from './role-store.js';

/** The log is flushed to the disk (fdatasync) at most this often: what a power cut can lose. */
const SYNC_MS = 50;
/** After a failed write, the next try waits this long (a full disk does not empty in 50 ms). */
const RETRY_MS = 1000;
/** The log is compacted once it holds this many bytes, or as many as the data file if more. */
export const DEFAULT_COMPACT_BYTES = 4 * 1024 * 1024;

/**
 * Persists the Roles incrementally. Each change is appended to `<file>.log` as one line before it
 * is answered (a synchronous write: a process killed, even by `kill -9`, right after an answer
 * keeps the change). The log is compacted into the data file when it passes a size threshold, at
 * start and at close: the data file is written whole to a temp file, fsynced and renamed over the
 * old one (never torn), then the log is replaced by the changes made during that write.
 */
export class DataLog {
  private fd: number | undefined;
  private bytes = 0;
  /** Lines appended while a compaction writes the data file: they become the new log. */
  private pending: string[] | undefined;
  private compacting: Promise<void> | undefined;
  /** Something is in the log, or could not be written: the data file is behind. */
  private behind = false;
  private failure: Error | undefined;
  private retry: NodeJS.Timeout | undefined;
  private syncTimer: NodeJS.Timeout | undefined;
  private snapshotBytes = 0;
  private closed = false;
  private tmpCounter = 0;
  private readonly log: string;

  constructor(
    private readonly file: string,
    private readonly contents: () => Buffer,
    /** Told once per run of failures (and again after a success), so a server can warn. */
    private readonly onError: (error: Error) => void = () => {},
    found: { dataBytes: number; logBytes: number } = { dataBytes: 0, logBytes: 0 },
    private readonly compactBytes = DEFAULT_COMPACT_BYTES,
  ) {
    this.log = logPath(file);
    this.behind = found.logBytes > 0;
    this.snapshotBytes = found.dataBytes;
  }

  /** Record one change; called before the change is answered. */
  append(change: RoleChange): void {
    this.behind = true;
    const line = 'put' in change ? `{"put":${change.put}}\n` : `{"delete":${JSON.stringify(change.delete)}}\n`;
    this.pending?.push(line);
    // While failing, the next compaction writes everything: the log is left as it is.
    if (this.failure || this.closed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(dirname(this.log), { recursive: true });
        this.fd = openSync(this.log, 'a');
      }
      const data = Buffer.from(line);
      for (let done = 0; done < data.length; ) done += writeSync(this.fd, data, done);
      this.bytes += data.length;
    } catch (err) {
      this.fail(err);
      return;
    }
    this.syncTimer ??= setTimeout(() => this.syncNow(), SYNC_MS).unref();
    if (!this.compacting && this.bytes >= Math.max(this.compactBytes, this.snapshotBytes)) void this.compact();
  }

  /** Write the data file from the store and empty the log; a failure is reported and retried, not thrown. */
  compact(): Promise<void> {
    if (this.compacting) return this.compacting;
    clearTimeout(this.retry);
    this.retry = undefined;
    const body = this.contents();
    const pending: string[] = [];
    this.pending = pending;
    this.compacting = (async () => {
      try {
        await this.writeSnapshot(body);
        this.snapshotBytes = body.length;
        // Synchronous from here on: no change can be appended in between.
        this.replaceLog(pending.join(''));
        this.behind = pending.length > 0;
        this.failure = undefined;
      } catch (err) {
        this.fail(err);
      } finally {
        this.pending = undefined;
        this.compacting = undefined;
      }
    })();
    return this.compacting;
  }

  /** The last compaction, then no more: a failure is left in `error` for the caller to report. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.syncTimer);
    while (this.compacting) await this.compacting;
    if (this.behind) await this.compact();
    clearTimeout(this.retry);
    this.closeFd();
  }

  /** The last write, if it failed: reported by close() rather than crashing the server mid-request. */
  get error(): Error | undefined {
    return this.failure;
  }

  private async writeSnapshot(data: Buffer): Promise<void> {
    const tmp = this.tmpName();
    try {
      await mkdir(dirname(this.file), { recursive: true });
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => {});
      throw err;
    }
  }

  /**
   * The log becomes `lines` (the changes the data file just written does not hold). A kill before
   * this leaves the old log next to the new data file: replaying it again gives the same Roles.
   */
  private replaceLog(lines: string): void {
    this.closeFd();
    this.bytes = 0;
    if (lines === '') {
      rmSync(this.log, { force: true });
      return;
    }
    const tmp = this.tmpName();
    try {
      writeFileSync(tmp, lines);
      renameSync(tmp, this.log);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    this.bytes = Buffer.byteLength(lines);
  }

  private syncNow(): void {
    this.syncTimer = undefined;
    // A power cut loses at most the last SYNC_MS of changes; an error here shows at the next append.
    if (this.fd !== undefined) fdatasync(this.fd, () => {});
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Nothing written is lost by a failed close of an append-only file that was fully written.
    }
    this.fd = undefined;
  }

  private tmpName(): string {
    return `${this.file}.${process.pid}.${++this.tmpCounter}.tmp`;
  }

  private fail(err: unknown): void {
    const first = this.failure === undefined;
    this.failure = new RoleflowError(`emulator data file ${this.file} could not be written: ${(err as Error).message}`);
    // The log may end in a torn line now: nothing more is appended until a compaction replaces it.
    this.closeFd();
    this.behind = true;
    if (!this.closed) this.retry = setTimeout(() => void this.compact(), RETRY_MS).unref();
    if (first) {
      try {
        this.onError(this.failure);
      } catch {
        // A warning that cannot be shown is no reason to stop serving.
      }
    }
  }
}
