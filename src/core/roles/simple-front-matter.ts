import { onFirstUse } from '../text/first-use.js';
import type { Position } from '../errors.js';

/**
 * Front-matter in its everyday shape, read without the YAML parser: a role file's front-matter is
 * nearly always two or three `key: value` lines, and the full parser costs ~60 µs a file, most of
 * a `plan` over thousands of files. `undefined` means "not this shape": the caller then parses it
 * as YAML, which stays the authority. This may decline anything; it must never read a value
 * differently from the parser.
 *
 * Accepted, and nothing else: lines that are empty or exactly `name: V`, `description: V` or
 * `id: V` (key at column 1, one space), each key at most once, name and description present, name
 * and id not empty; `\r` before `\n` allowed. V is one of
 * - a plain scalar that YAML 1.2's core schema reads as that very string: it starts with a letter
 *   or digit, holds letters, digits, spaces and any printable ASCII character but `:` and `#`
 *   (and non-ASCII punctuation or symbols, none of which YAML gives a meaning), and does not end in
 *   a space. So no `: ` or ` #` can end it, no indicator can start it, and no tag, anchor or alias
 *   can hide in it (an indicator means something only where a value starts). It is not
 *   one of the words the core schema (or YAML 1.1) reads as a boolean or null, and when it starts
 *   with a digit, `couldBeNumber` proves it is no number;
 * - a double- or single-quoted scalar on one line whose inside holds no quote, no backslash and no
 *   control character: such a scalar has no escapes and no folding, so its value is its inside.
 */
export interface SimpleFrontMatter {
  name: string;
  description: string;
  id?: string;
  /** Where the keys stand; the front-matter's first line is line 2 of the file. */
  at: { name: Position; id?: Position; description: Position; descriptionText?: Position };
}

type Key = 'name' | 'description' | 'id';

function keyOf(line: string): Key | undefined {
  return line.startsWith('name: ') ? 'name' : line.startsWith('description: ') ? 'description' : line.startsWith('id: ') ? 'id' : undefined;
}

/** The plain and quoted values taken as they are (`onFirstUse`: only text beyond ASCII needs them). */
export const plainPattern = onFirstUse(() => /^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N} ,.;()/+=?_'"!$%&*@^~<>|[\]{}\\`-]|(?![\x00-\x7f])[\p{P}\p{S}])*$/u);
export const quotedInsidePattern = onFirstUse(() => /^(?:[\p{L}\p{M}\p{N} ]|(?!["'\\])[\p{P}\p{S}])*$/u);
/**
 * What QUOTED_INSIDE accepts of ASCII, as a plain class (no Unicode property lookups): every
 * printable character but the quotes and the backslash. Tried first; text it refuses goes on to
 * QUOTED_INSIDE, so it can only answer sooner, never otherwise (tested over every ASCII character).
 */
const QUOTED_ASCII = /^[ !#-&(-[\]-~]*$/;
/**
 * What PLAIN accepts of ASCII text: for text that is all ASCII its answer is PLAIN's (no ASCII
 * character is a mark, and the last alternative takes none), so PLAIN, whose Unicode classes V8
 * compiles on first use (~5 ms of a command's start), is tried only on text beyond ASCII.
 */
const PLAIN_ASCII = /^[A-Za-z0-9][A-Za-z0-9 ,.;()/+=?_'"!$%&*@^~<>|[\]{}\\`-]*$/;
const ALL_ASCII = /^[\x00-\x7f]*$/;
/** Booleans and nulls of YAML 1.2's core schema, and YAML 1.1's, in any case. */
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

export function readSimpleFrontMatter(yaml: string): SimpleFrontMatter | undefined {
  // Each key's value and line, kept in locals (not an object per key): this runs for every file.
  let name: string | undefined;
  let nameLine = 0;
  let description: string | undefined;
  let descriptionLine = 0;
  let descriptionQuoted = false;
  let id: string | undefined;
  let idLine = 0;
  const lines = yaml.split('\n');
  // The text ends with the line break before the closing `---`: its last piece is empty.
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    // `key: ` at the start; the rest is the value. (A line break of any kind in the rest, which
    // `.` would not match, is refused by scalarValue: neither form of value holds one.)
    const key = keyOf(line);
    if (key === undefined) return undefined;
    const raw = line.slice(key.length + 2);
    const value = scalarValue(raw);
    if (value === undefined) return undefined;
    if (key === 'name') {
      if (name !== undefined) return undefined;
      name = value;
      nameLine = i + 2;
    } else if (key === 'description') {
      if (description !== undefined) return undefined;
      description = value;
      descriptionLine = i + 2;
      descriptionQuoted = raw.startsWith('"') || raw.startsWith("'");
    } else {
      if (id !== undefined) return undefined;
      id = value;
      idLine = i + 2;
    }
  }
  if (!name || description === undefined || id === '') return undefined;
  const at = positionsOf(nameLine, id === undefined ? undefined : idLine, descriptionLine, description === '' ? undefined : descriptionQuoted ? 15 : 14);
  return id === undefined ? { name, description, at } : { name, description, id, at };
}

type Positions = SimpleFrontMatter['at'];

/**
 * Most role files of a folder lay their front-matter out alike (name on line 2, description on
 * line 3): they share one frozen `at` per layout, rather than four objects each kept to the end
 * of the run (100,000 files: ~10 MB). Layouts past line 64 are rare and not kept.
 */
const SHARED_POSITIONS = new Map<number, Positions>();

function positionsOf(nameLine: number, idLine: number | undefined, descriptionLine: number, textCol: number | undefined): Positions {
  const shared = nameLine < 64 && (idLine ?? 0) < 64 && descriptionLine < 64;
  const key = ((nameLine * 64 + (idLine ?? 0)) * 64 + descriptionLine) * 16 + (textCol ?? 0);
  const known = shared ? SHARED_POSITIONS.get(key) : undefined;
  if (known) return known;
  const at: Positions = Object.freeze({
    name: Object.freeze({ line: nameLine, col: 1 }),
    ...(idLine === undefined ? {} : { id: Object.freeze({ line: idLine, col: 1 }) }),
    // The description's value starts after `description: ` (its quote, when quoted, included).
    description: Object.freeze({ line: descriptionLine, col: 14 }),
    // The value is the rest of its line, plain or between quotes, with no escapes.
    ...(textCol === undefined ? {} : { descriptionText: Object.freeze({ line: descriptionLine, col: textCol }) }),
  });
  if (shared) SHARED_POSITIONS.set(key, at);
  return at;
}

function scalarValue(raw: string): string | undefined {
  const first = raw[0];
  if (first === '"' || first === "'") {
    if (raw.length < 2 || raw[raw.length - 1] !== first) return undefined;
    const inside = raw.slice(1, -1);
    return quotedInsideIsSimple(inside) ? inside : undefined;
  }
  if (!plainIsSimple(raw) || raw.endsWith(' ') || RESERVED.test(raw) || couldBeNumber(raw)) return undefined;
  return raw;
}

/** Whether a plain scalar has PLAIN's shape; for ASCII text, PLAIN_ASCII says. */
export function plainIsSimple(raw: string): boolean {
  return ALL_ASCII.test(raw) ? PLAIN_ASCII.test(raw) : plainPattern().test(raw);
}

/** Whether a quoted scalar's inside is its value as it is (QUOTED_INSIDE); for ASCII text, QUOTED_ASCII says. */
export function quotedInsideIsSimple(inside: string): boolean {
  return QUOTED_ASCII.test(inside) || (!ALL_ASCII.test(inside) && quotedInsidePattern().test(inside));
}

/**
 * Whether the core schema could read this as a number (an int, octal `0o…`, hex `0x…` or float).
 * Each of those forms uses only `0-9 a-f A-F x o . + -` (e for exponents is among the hex
 * letters), and a `-` only first or right after `e`/`E`. A value with any other character, or a
 * `-` anywhere else (as in a UUID), is certainly a string.
 */
export function couldBeNumber(value: string): boolean {
  // Every number form starts with a digit, a sign or a dot.
  if (!/^[0-9+.-][0-9a-fA-Fxo.+-]*$/.test(value)) return false;
  for (let i = 1; i < value.length; i++) {
    if (value[i] === '-' && value[i - 1] !== 'e' && value[i - 1] !== 'E') return false;
  }
  return true;
}

const checkedSchemas = new WeakMap<object, boolean>();

/**
 * Whether `schema` asks no more of a front-matter than `readSimpleFrontMatter` guarantees (the
 * shape of `schemas/role.schema.json`): an object with required string keys name and description,
 * an optional string id, no other key but an optional `tenants` (which this reader never accepts), and at most `minLength: 1` on name and id. Then what that function reads
 * is valid without running the validator. A schema that asks anything else (a pattern, a maximum
 * length, another key) is not recognised, and every file goes through the validator.
 */
export function schemaAcceptsSimple(schema: object): boolean {
  let known = checkedSchemas.get(schema);
  if (known === undefined) {
    known = isSimpleRoleSchema(schema as Record<string, unknown>);
    checkedSchemas.set(schema, known);
  }
  return known;
}

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$comment']);

function isSimpleRoleSchema(schema: Record<string, unknown>): boolean {
  const topKeys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  if (!sameSet(topKeys, ['type', 'required', 'additionalProperties', 'properties'])) return false;
  if (schema['type'] !== 'object' || schema['additionalProperties'] !== false) return false;
  const required = schema['required'];
  if (!Array.isArray(required) || !sameSet(required, ['name', 'description'])) return false;
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null) return false;
  // `tenants` is optional and never on a line this reader accepts: a file with it is parsed as YAML.
  const keys = Object.keys(properties).filter((k) => k !== 'tenants');
  if (!sameSet(keys, ['name', 'description', 'id'])) return false;
  // The fast path never gives an empty name or id; a description may be "".
  const props = properties as Record<string, unknown>;
  return isStringProperty(props['name'], 1) && isStringProperty(props['id'], 1) && isStringProperty(props['description'], 0);
}

function isStringProperty(property: unknown, maxMinLength: number): boolean {
  if (typeof property !== 'object' || property === null) return false;
  const p = property as Record<string, unknown>;
  const keys = Object.keys(p).filter((k) => !ANNOTATIONS.has(k));
  const minLength = p['minLength'];
  const lengthOk = minLength === undefined || (typeof minLength === 'number' && minLength <= maxMinLength);
  return p['type'] === 'string' && keys.every((k) => k === 'type' || k === 'minLength') && lengthOk;
}

function sameSet(a: readonly unknown[], b: readonly string[]): boolean {
  return a.length === b.length && b.every((x) => a.includes(x));
}
