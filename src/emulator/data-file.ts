import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import type { Role } from '../core/model.js';

/**
 * The data file holds exactly what `GET /admin/roles/get` answers: a JSON array of Roles with the
 * service's field names (either `last_updated` or `last_update` is read back).
 */
export async function loadRoles(file: string): Promise<Role[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new RoleflowError(`emulator data file ${file} cannot be read: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8 quotes a piece of the text, line breaks included: one line is printed.
    throw corrupt(file, `not valid JSON (${(err as Error).message.replace(/\s+/g, ' ').slice(0, 160)})`);
  }
  if (!Array.isArray(value)) throw corrupt(file, 'not a JSON array of Roles');
  return value.map((entry, i) => toRole(entry, i, file));
}

function toRole(entry: unknown, index: number, file: string): Role {
  const r = (entry ?? {}) as Record<string, unknown>;
  for (const key of ['id', 'name', 'description', 'content'] as const) {
    if (typeof r[key] !== 'string') throw corrupt(file, `invalid: entry ${index} has no string "${key}"`);
  }
  const optional = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    id: r['id'] as string,
    name: r['name'] as string,
    description: r['description'] as string,
    content: r['content'] as string,
    createdAt: optional(r['created_at']),
    lastUpdated: optional(r['last_updated']) ?? optional(r['last_update']),
  };
}

function corrupt(file: string, why: string): RoleflowError {
  return new RoleflowError(`emulator data file ${file} is ${why}; fix or remove it (it was left untouched)`);
}

/**
 * Temp files of writes that a killed process never renamed (`<file>.<pid>.<n>.tmp`), removed when
 * their process is gone; a live one may be another process writing the same file right now.
 */
export async function removeStaleTemps(file: string): Promise<void> {
  const name = basename(file);
  let entries: string[];
  try {
    entries = await readdir(dirname(file));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith('.tmp')) continue;
    const pid = /^\.(\d+)\.\d+\.tmp$/.exec(entry.slice(name.length))?.[1];
    if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    await rm(join(dirname(file), entry), { force: true }).catch(() => undefined);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const COALESCE_MS = 50;
/** After a failed write, the next try waits this long (a full disk does not empty in 50 ms). */
const RETRY_MS = 1000;

/**
 * Writes the data file at most once per COALESCE_MS however many changes arrive, and never two at
 * once. Each write is atomic (temp file, fsync, rename), so a crash leaves the old or the new file,
 * never a torn one.
 */
export class DataFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private failure: Error | undefined;
  private closed = false;
  private tmpCounter = 0;

  constructor(
    private readonly file: string,
    private readonly contents: () => Buffer,
    /** Told once per run of failures (and again after a success), so a server can warn. */
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (!this.writing) this.schedule();
  }

  /** Write now if anything changed; resolves when the file on disk is current. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = this.write(this.contents()).finally(() => {
      this.writing = undefined;
      if (this.dirty) this.schedule();
    });
    await this.writing;
  }

  /** The last write, then no more: a failure is left in `error` for the caller to report. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The last write, if it failed: reported by close() rather than crashing the server mid-request. */
  get error(): Error | undefined {
    return this.failure;
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => void this.flush(), this.failure ? RETRY_MS : COALESCE_MS).unref();
  }

  private async write(data: Buffer): Promise<void> {
    const tmp = `${this.file}.${process.pid}.${++this.tmpCounter}.tmp`;
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
      this.failure = undefined;
    } catch (err) {
      const first = this.failure === undefined;
      this.failure = new RoleflowError(`emulator data file ${this.file} could not be written: ${(err as Error).message}`);
      // The state on disk is now behind: the next flush (a timer, or close) tries again.
      this.dirty = true;
      await rm(tmp, { force: true }).catch(() => {});
      if (first) {
        try {
          this.onError(this.failure);
        } catch {
          // A warning that cannot be shown is no reason to stop serving.
        }
      }
    }
  }
}
