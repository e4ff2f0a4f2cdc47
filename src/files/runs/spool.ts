import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grown, grownSize } from '../../core/runs/growable.js';

/**
 * Texts kept in a temporary file by number (`put`, then `get` in any order): what `report merge`
 * has read waits here, not in memory. Writes are gathered up to `FLUSH_BYTES`; the numbers that
 * place each text are two typed arrays. `close` removes the file.
 */
export class TextSpool {
  readonly dir: string;
  private readonly fd: number;
  /** Where each text starts; it ends where the next one starts (the last one, at `written` + pending). */
  private offsets = new Float64Array(1024);
  private size = 0;
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(prefix = 'roleflow-merge-') {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.fd = openSync(join(this.dir, 'spool'), 'w+');
  }

  /** Keep `text` as number `n` (numbers come in order 0, 1, 2, …). */
  put(n: number, text: string): void {
    if (n !== this.size) throw new Error(`spool: text ${n} put after ${this.size - 1}`);
    if (n === this.offsets.length) this.grow();
    const bytes = Buffer.from(text, 'utf8');
    this.offsets[n] = this.written + this.pendingBytes;
    this.size++;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  get(n: number): string {
    if (n >= this.size) throw new Error(`spool: no text ${n}`);
    this.flush();
    const end = n + 1 < this.size ? this.offsets[n + 1]! : this.written;
    const buffer = Buffer.allocUnsafe(end - this.offsets[n]!);
    let read = 0;
    while (read < buffer.length) read += readSync(this.fd, buffer, read, buffer.length - read, this.offsets[n]! + read);
    return buffer.toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    let done = 0;
    while (done < chunk.length) done += writeSync(this.fd, chunk, done, chunk.length - done, this.written + done);
    this.written += chunk.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  private grow(): void {
    this.offsets = grown(this.offsets, new Float64Array(grownSize(this.offsets.length)));
  }
}

const FLUSH_BYTES = 64 * 1024;
