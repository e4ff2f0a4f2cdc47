import type { Plan } from './plan-types.js';

/** Keys in the order a reader expects them; keys not listed follow alphabetically. */
const KEY_ORDER = [
  'format_version', 'tenant', 'created_at', 'options', 'summary', 'changes', 'unmanaged', 'notes', 'guards', 'issues',
  'action', 'kind', 'name', 'base_url', 'id', 'file', 'line', 'col', 'message',
  'prune', 'protect', 'ignore', 'max_deletes',
  'create', 'update', 'delete', 'unchanged',
  'fields', 'before', 'after', 'description', 'content', 'diff', 'remote_hash',
];
const rank = new Map(KEY_ORDER.map((k, i) => [k, i]));

/**
 * The plan as JSON (`schemas/plan.schema.json`), keys in a fixed order whatever order the object
 * was built or read in, so saved plans diff cleanly.
 */
export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(ordered(plan), null, 2)}\n`;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => {
    const ra = rank.get(a) ?? KEY_ORDER.length;
    const rb = rank.get(b) ?? KEY_ORDER.length;
    return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
  });
  // fromEntries defines own properties, so even a "__proto__" key read from a file stays data.
  return Object.fromEntries(keys.map((key) => [key, ordered((value as Record<string, unknown>)[key])]));
}
