import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { sha256 } from './hash.js';
import { isTenantPlanError, PLAN_FORMAT_VERSION, type Plan, type PlanChange, type TenantPlanEntry } from './types.js';
import type { Redactor } from '../text/redact.js';
import { jsonText } from '../text/safe-text.js';
import { encodedInPieces } from '../text/text-parts.js';

/** Keys in the order a reader expects them; keys not listed follow alphabetically. */
const KEY_ORDER = [
  'format_version', 'tenant', 'created_at', 'options', 'summary', 'changes', 'unmanaged', 'notes', 'guards', 'issues',
  'action', 'kind', 'name', 'base_url', 'id', 'file', 'line', 'col', 'message',
  'prune', 'protect', 'ignore', 'max_deletes',
  'create', 'update', 'delete', 'unchanged',
  'fields', 'before', 'after', 'description', 'content', 'diff', 'remote_hash', 'name_hash', 'allow_empty_prune',
];
const rank = new Map(KEY_ORDER.map((k, i) => [k, i]));

/**
 * The plan as JSON (`schemas/plan.schema.json`), keys in a fixed order whatever order the object
 * was built or read in, so saved plans diff cleanly. The last key is `digest`, the `sha256:` of
 * everything above it (see `planDigest`).
 */
export function renderPlanJson(plan: Plan): string {
  const body = bodyText(plan);
  return `${body.slice(0, -2)},\n  "digest": ${JSON.stringify(sha256(body))}\n}\n`;
}

/**
 * The digest a plan's JSON carries: `sha256:` of the plan without its `digest`, serialised as
 * `renderPlanJson` does (fixed key order, two-space indent), which is canonical: a plan read back
 * from its file gives the same text, and any change to a change, the tenant, the options or the
 * summary gives another. It tells an altered plan from the one `plan --out` wrote; it is not a
 * signature (whoever edits the file can compute a new one).
 */
export function planDigest(plan: Plan): string {
  return sha256(bodyText(plan));
}

/** The saved plan of a run over several tenants (`schemas/plan.schema.json`). */
export interface TenantPlans {
  format_version: typeof PLAN_FORMAT_VERSION;
  tenants: Plan[];
  digest?: string;
}

/**
 * The plans of a run over several tenants as one JSON document: `{format_version, tenants: [<plan>…],
 * digest}`, each plan as `renderPlanJson` writes it (with its own digest), in the order they are
 * applied. The document's `digest` covers which tenants it holds and in what order
 * (`tenantPlansDigest`); each plan's own covers its contents.
 */
export function renderTenantPlansJson(plans: readonly TenantPlanEntry[]): string {
  // A tenant that could not be planned is `{tenant, error: {code, message}}`: such a document is shown, never saved.
  const tenants = plans.map((plan) => (isTenantPlanError(plan) ? plan : (JSON.parse(renderPlanJson(plan)) as Plan)));
  const body = jsonText({ format_version: PLAN_FORMAT_VERSION, tenants }, 2);
  return `${body.slice(0, -2)},\n  "digest": ${JSON.stringify(tenantPlansDigest(tenants))}\n}\n`;
}

/** The digest of a multi-tenant document: its tenants, in order, each with its plan's digest. */
export function tenantPlansDigest(plans: readonly (Pick<Plan, 'tenant'> & { digest?: string })[]): string {
  return sha256(JSON.stringify(plans.map((p) => [p.tenant.name, p.tenant.base_url, p.digest ?? null])));
}

/**
 * `renderPlanJson(plan)` as UTF-8, in pieces of about 1 MB (`encodedInPieces`), hashed as they are
 * made. A plan of 100,000 Roles is over 100 MB of JSON; written piece by piece, the whole text is
 * never held, and each change's text is encoded once, for the hash and the writer alike.
 * With `redactor`, the text of `redactor.values(plan)`: each part is serialised as it is and
 * redone from masked values only when it may hold a secret (a walk through every value of 100,000
 * Roles costs more than a search of their text). `partChars`: see `bodyParts` (tests make it small).
 */
export function* planJsonBytes(plan: Plan, { redactor, partChars = PART_CHARS }: { redactor?: Redactor; partChars?: number } = {}): Generator<Uint8Array> {
  const { digest: _digest, changes, ...rest } = plan;
  const frame = jsonText(ordered({ ...(redactor ? redactor.values(rest) : rest), changes: [] }), 2);
  // The top-level key is the one line that starts with exactly two spaces and "changes".
  const at = frame.indexOf('\n  "changes": []') + '\n  "changes": '.length;
  const hash = createHash('sha256');
  yield* encodedInPieces(bodyParts(frame.slice(0, at), changes, partChars, redactor), (bytes) => hash.update(bytes));
  const tail = frame.slice(at + 2);
  hash.update(tail);
  yield Buffer.from(`${tail.slice(0, -2)},\n  "digest": ${JSON.stringify(`sha256:${hash.digest('hex')}`)}\n}\n`);
}

/**
 * The text of a plan up to its last change's `]`, from the text before the changes (`head`): the
 * changes serialised as many at a time as make about `partChars` characters (one JSON.stringify
 * per change cost ~40% more). Kept well under V8's large-object size (128 KB), each text is made
 * in the young generation, whose memory is reused, rather than in memory of its own mapped for it
 * and then unmapped: 64 changes at a time (~130 KB each in the bench) were ~30% slower to serialise.
 */
function* bodyParts(head: string, changes: readonly PlanChange[], partChars: number, redactor: Redactor | undefined): Generator<string> {
  if (changes.length === 0) {
    yield `${head}[]`;
    return;
  }
  yield `${head}[\n    `;
  for (let i = 0; i < changes.length; ) {
    let end = i + 1;
    for (let chars = charsOf(changes[i]!); end < changes.length && (chars += charsOf(changes[end]!)) <= partChars; end++);
    // Serialised two arrays deep, they are indented as they sit in the whole: no pass to indent them.
    const group = changes.slice(i, end);
    let nested = jsonText([group.map(ordered)], 2);
    if (redactor?.mayHoldSecret(nested)) nested = jsonText([redactor.values(group).map(ordered)], 2);
    if (i > 0) yield ',\n    ';
    yield nested.slice(NESTED_START.length, -NESTED_END.length);
    i = end;
  }
  yield '\n  ]';
}

const PART_CHARS = 64 * 1024;

/** About how long a change is as JSON: its texts, plus a few hundred characters of keys, names, ids and hashes. */
function charsOf(change: PlanChange): number {
  const { before, after, diff } = change;
  return 300 + (before ? before.description.length + before.content.length : 0) + (after ? after.description.length + after.content.length : 0) + (diff?.length ?? 0);
}

/** What `jsonText([[x, …]], 2)` puts around `x, …`. */
const NESTED_START = '[\n  [\n    ';
const NESTED_END = '\n  ]\n]';

function bodyText(plan: Plan): string {
  const { digest: _digest, ...rest } = plan;
  return jsonText(ordered(rest), 2);
}

/**
 * The value with every object's keys in that order. Objects (and arrays) already in order are
 * returned as they are rather than copied: a plan from `computePlan` is built in this order, and
 * copying thousands of changes only to serialise them costs time and memory.
 */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const o = ordered(item);
      if (o !== item) (copy ??= [...value])[i] = o;
    }
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const inOrder = isPlainObject(record) && keysInOrder(keys);
  // The values as `ordered` gives them, made only once one differs from the object's own.
  let values: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const own = record[keys[i]!];
    const o = ordered(own);
    if (o !== own && values === undefined) values = keys.slice(0, i).map((key) => record[key]);
    values?.push(o);
  }
  if (inOrder && values === undefined) return value;
  const entries = keys.map((key, i): [string, unknown] => [key, values === undefined ? record[key] : values[i]]).sort(([a], [b]) => byRank(a, b));
  // fromEntries defines own properties, so even a "__proto__" key read from a file stays data.
  return Object.fromEntries(entries);
}

/**
 * Whether keys are in KEY_ORDER's order. Key lists found in order are remembered (a few), so the
 * thousands of changes of one shape are each checked by comparing their keys with the list's.
 */
function keysInOrder(keys: readonly string[]): boolean {
  for (const known of IN_ORDER) if (sameKeys(known, keys)) return true;
  for (let i = 1; i < keys.length; i++) if (byRank(keys[i - 1]!, keys[i]!) >= 0) return false;
  if (IN_ORDER.length < MAX_IN_ORDER) IN_ORDER.push(keys);
  return true;
}

const IN_ORDER: (readonly string[])[] = [];
const MAX_IN_ORDER = 16;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
