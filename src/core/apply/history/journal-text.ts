import { utf8Length } from '../../roles/role-file.js';
import { HISTORY_FORMAT_VERSION, type ChangeOutcome, type JournalChange, type JournalRecord, type JournalStatus, type RoleContent } from './record.js';

/** A journal as read: its records in the order they started, and the lines that were not records. */
export interface ReadJournal {
  records: JournalRecord[];
  /** Lines skipped (1-based), with why: a line torn by a full disk, a newer format, a hand edit. */
  skipped: { line: number; reason: string }[];
}

const STATUSES: readonly JournalStatus[] = ['started', 'completed', 'failed', 'interrupted'];
const OUTCOMES: readonly ChangeOutcome[] = ['done', 'failed', 'unknown', 'not_started'];
const COMMANDS = ['apply', 'promote', 'rollback', 'preview'] as const;
const ACTIONS = ['create', 'update', 'delete'] as const;

/**
 * Fold a journal's lines by id: a later line of a record completes the earlier (its status, the
 * outcomes and state win; what it leaves out stays). A record whose last line still says
 * `started` was never completed — its apply was killed — and reads as `interrupted`, its changes' outcomes `unknown`. Only the
 * members a record may have are kept, each of its type: the journal may have been edited by hand,
 * and what is printed from it must still be a record.
 */
export function readJournal(text: string): ReadJournal {
  const byId = new Map<string, JournalRecord>();
  const skipped: ReadJournal['skipped'] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') {
      skipped.push({ line: index + 1, reason: parsed });
      return;
    }
    const earlier = byId.get(parsed.id);
    byId.set(parsed.id, earlier === undefined ? parsed : mergeLines(earlier, parsed));
  });
  // Killed midway: which of its changes were sent, nothing says.
  const killed = (r: JournalRecord): JournalRecord => ({ ...r, status: 'interrupted', changes: r.changes.map((c) => (c.outcome === 'not_started' ? { ...c, outcome: 'unknown' } : c)) });
  const records = [...byId.values()].map((r) => (r.status === 'started' ? killed(r) : r));
  return { records, skipped };
}

/** One record's line: JSON without line breaks, ending in `\n`. */
export function recordLine(record: JournalRecord | Partial<JournalRecord>): string {
  return `${JSON.stringify(record)}\n`;
}

/**
 * The journal cut to its last `keep` records and then to at most `maxBytes` as sent inside a
 * Role (UTF-8, JSON-escaped), dropping whole records, oldest first, with their lines. Undefined
 * when the newest record alone is larger.
 */
export function trimJournal(text: string, keep: number, maxBytes: number): string | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const order: string[] = [];
  const linesOf = new Map<string, string[]>();
  for (const line of lines) {
    const id = idOf(line);
    if (!linesOf.has(id)) {
      order.push(id);
      linesOf.set(id, []);
    }
    linesOf.get(id)!.push(line);
  }
  let kept = order.slice(Math.max(0, order.length - keep));
  const size = (ids: string[]): number => ids.reduce((n, id) => n + linesOf.get(id)!.reduce((m, l) => m + utf8Length(JSON.stringify(l)) - 2 + 2, 0), 0);
  while (kept.length > 0 && size(kept) > maxBytes) kept = kept.slice(1);
  if (kept.length === 0 && order.length > 0) return undefined;
  return kept.flatMap((id) => linesOf.get(id)!).map((l) => `${l}\n`).join('');
}

function idOf(line: string): string {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === 'string' ? id : `\0${line}`;
  } catch {
    return `\0${line}`;
  }
}

function mergeLines(earlier: JournalRecord, later: JournalRecord): JournalRecord {
  const merged: JournalRecord = { ...earlier, ...later, time: earlier.time };
  if (earlier.before_content !== undefined || later.before_content !== undefined) merged.before_content = { ...earlier.before_content, ...later.before_content };
  return merged;
}

/** A line as a record, or why it is not one. */
function parseLine(line: string): JournalRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON (a line cut short?)';
  }
  if (!isObject(value)) return 'not a JSON object';
  if (value['format_version'] !== HISTORY_FORMAT_VERSION) return `format_version ${JSON.stringify(value['format_version'])} is not ${HISTORY_FORMAT_VERSION} (written by another roleflow?)`;
  const id = value['id'];
  const status = value['status'];
  if (typeof id !== 'string' || id === '') return 'no id';
  if (!STATUSES.includes(status as JournalStatus)) return `status ${JSON.stringify(status)} is none of ${STATUSES.join(', ')}`;
  const changes = value['changes'];
  if (!Array.isArray(changes)) return 'no changes list';
  const record: JournalRecord = {
    format_version: HISTORY_FORMAT_VERSION,
    id,
    time: text(value['time']) ?? '',
    actor: text(value['actor']) ?? '',
    commit: text(value['commit']) ?? null,
    ref: text(value['ref']) ?? null,
    run_url: text(value['run_url']) ?? null,
    command: COMMANDS.find((c) => c === value['command']) ?? 'apply',
    tenant: text(value['tenant']) ?? '',
    plan_digest: text(value['plan_digest']) ?? '',
    status: status as JournalStatus,
    changes: changes.flatMap((c) => {
      const change = changeOf(c);
      return change === undefined ? [] : [change];
    }),
  };
  const finished = text(value['finished_at']);
  if (finished !== undefined) record.finished_at = finished;
  const state = stringMap(value['state']);
  if (state !== undefined) record.state = state;
  const content = contentMap(value['before_content']);
  if (content !== undefined) record.before_content = content;
  const rollback = text(value['rollback_of']);
  if (rollback !== undefined) record.rollback_of = rollback;
  if (value['preview'] === true) record.preview = true;
  if (value['dirty'] === true) record.dirty = true;
  return record;
}

function changeOf(value: unknown): JournalChange | undefined {
  if (!isObject(value)) return undefined;
  const action = ACTIONS.find((a) => a === value['action']);
  const name = text(value['name']);
  const outcome = OUTCOMES.find((o) => o === value['outcome']);
  if (action === undefined || name === undefined || outcome === undefined) return undefined;
  const change: JournalChange = { action, name, outcome };
  for (const key of ['id', 'renamed_from', 'before_sha256', 'after_sha256'] as const) {
    const v = text(value[key]);
    if (v !== undefined) change[key] = v;
  }
  return change;
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const map: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') defineOwn(map, k, v);
  return map;
}

function contentMap(value: unknown): Record<string, RoleContent> | undefined {
  if (!isObject(value)) return undefined;
  const map: Record<string, RoleContent> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!isObject(v)) continue;
    const [name, description, content] = [text(v['name']), text(v['description']), text(v['content'])];
    if (name !== undefined && description !== undefined && content !== undefined) defineOwn(map, k, { name, description, content });
  }
  return map;
}

/** A key such as `__proto__` becomes an own member, not the prototype. */
function defineOwn<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
