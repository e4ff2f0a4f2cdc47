import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RoleflowError } from '../../core/errors.js';
import type { Role } from '../../core/model.js';

/** Where the changes since the data file was last written are appended, one JSON line each. */
export const logPath = (file: string): string => `${file}.log`;

export interface LoadedData {
  roles: Role[];
  /** Bytes in the data file (0 when there is none). */
  dataBytes: number;
  /** Bytes found in the change log (0 when there is none): the start compacts them into the data file. */
  logBytes: number;
}

/**
 * The data file holds exactly what `GET /admin/roles/get` answers: a JSON array of Roles with the
 * service's field names (either `last_updated` or `last_update` is read back). Its change log
 * (`<file>.log`) holds one line per change since: `{"put":<Role>}` (create, update) or
 * `{"delete":"<id>"}`. A last line without its line break is a write a kill cut short (never an
 * answered change) and is ignored; any other line that cannot be read refuses the start.
 */
export async function loadDataFile(file: string): Promise<LoadedData> {
  const text = await readIfThere(file);
  let value: unknown = [];
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch (err) {
      // V8 quotes a piece of the text, line breaks included: one line is printed.
      throw corrupt(file, `not valid JSON (${oneLine(err)})`);
    }
  }
  if (!Array.isArray(value)) throw corrupt(file, 'not a JSON array of Roles');
  const roles = new Map<string, Role>();
  value.forEach((entry, i) => {
    const role = toRole(entry, `entry ${i}`, file);
    roles.set(role.id, role);
  });
  const log = logPath(file);
  const logText = (await readIfThere(log)) ?? '';
  const lines = logText.split('\n');
  lines.pop(); // '' after the last line break, or a torn last line
  lines.forEach((line, i) => applyLogLine(roles, line, log, i + 1));
  return { roles: [...roles.values()], dataBytes: Buffer.byteLength(text ?? ''), logBytes: Buffer.byteLength(logText) };
}

/** Replaying the log twice gives the same Roles (a kill between writing the data file and emptying the log). */
function applyLogLine(roles: Map<string, Role>, line: string, log: string, lineNo: number): void {
  let change: Record<string, unknown>;
  try {
    change = (JSON.parse(line) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw corrupt(log, `not valid JSON at line ${lineNo} (${oneLine(err)})`);
  }
  if (typeof change['delete'] === 'string') {
    roles.delete(change['delete']);
  } else if (typeof change['put'] === 'object' && change['put'] !== null) {
    const role = toRole(change['put'], `line ${lineNo}`, log);
    roles.set(role.id, role); // an update keeps the Role's place
  } else {
    throw corrupt(log, `invalid: line ${lineNo} is neither {"put": Role} nor {"delete": id}`);
  }
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new RoleflowError(`emulator data file ${file} cannot be read: ${(err as Error).message}`);
  }
}

const oneLine = (err: unknown): string => (err as Error).message.replace(/\s+/g, ' ').slice(0, 160);

function toRole(entry: unknown, where: string, file: string): Role {
  const r = (entry ?? {}) as Record<string, unknown>;
  for (const key of ['id', 'name', 'description', 'content'] as const) {
    if (typeof r[key] !== 'string') throw corrupt(file, `invalid: ${where} has no string "${key}"`);
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
