import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
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
    throw corrupt(file, `not valid JSON (${(err as Error).message})`);
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

const COALESCE_MS = 50;

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
  private tmpCounter = 0;

  constructor(
    private readonly file: string,
    private readonly contents: () => Buffer,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => void this.flush(), COALESCE_MS).unref();
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
      if (this.dirty && !this.timer) this.timer = setTimeout(() => void this.flush(), COALESCE_MS).unref();
    });
    await this.writing;
  }

  /** A write that failed earlier, reported by close() rather than crashing the server mid-request. */
  get error(): Error | undefined {
    return this.failure;
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
      this.failure = new RoleflowError(`emulator data file ${this.file} could not be written: ${(err as Error).message}`);
      await rm(tmp, { force: true }).catch(() => {});
    }
  }
}
