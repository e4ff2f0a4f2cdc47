import type { Plan } from './plan-types.js';
import { jsonText } from '../safe-text.js';

/** Keys in the order a reader expects them; keys not listed follow alphabetically. */
const KEY_ORDER = [
  'format_version', 'tenant', 'created_at', 'options', 'summary', 'changes', 'unmanaged', 'notes', 'guards', 'issues',
  'action', 'kind', 'name', 'base_url', 'id', 'file', 'line', 'col', 'message',
  'prune', 'protect', 'ignore', 'max_deletes',
  'create', 'update', 'delete', 'unchanged',
  'fields', 'before', 'after', 'description', 'content', 'diff', 'remote_hash', 'name_hash',
];
const rank = new Map(KEY_ORDER.map((k, i) => [k, i]));

/**
 * The plan as JSON (`schemas/plan.schema.json`), keys in a fixed order whatever order the object
 * was built or read in, so saved plans diff cleanly.
 */
export function renderPlanJson(plan: Plan): string {
  return `${jsonText(ordered(plan), 2)}\n`;
}

/**
 * The value with every object's keys in that order. Objects (and arrays) already in order are
 * returned as they are rather than copied: a plan from `computePlan` is built in this order, and
 * copying thousands of changes only to serialise them costs time and memory.
 */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const o = ordered(item);
      if (o !== item) (copy ??= [...value])[i] = o;
    });
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let same = isPlainObject(record);
  for (let i = 1; same && i < keys.length; i++) same = byRank(keys[i - 1]!, keys[i]!) < 0;
  const values = keys.map((key) => {
    const o = ordered(record[key]);
    if (o !== record[key]) same = false;
    return o;
  });
  if (same) return value;
  const entries = keys.map((key, i): [string, unknown] => [key, values[i]]).sort(([a], [b]) => byRank(a, b));
  // fromEntries defines own properties, so even a "__proto__" key read from a file stays data.
  return Object.fromEntries(entries);
}

function byRank(a: string, b: string): number {
  const ra = rank.get(a) ?? KEY_ORDER.length;
  const rb = rank.get(b) ?? KEY_ORDER.length;
  return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
}

/** Only a plain object serialises exactly like the copy `Object.fromEntries` would make of it. */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
