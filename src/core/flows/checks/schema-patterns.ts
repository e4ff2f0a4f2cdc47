import { compileUserRegex, type UserRegex } from '../../text/linear-regex.js';
import { ptr } from '../load-context.js';
import { stableJson } from '../../text/stable-json.js';

/** A regular expression of a JSON Schema: a `pattern` value or a `patternProperties` key, and where. */
export interface SchemaPattern {
  /** The keys from the schema's root to it. */
  path: string[];
  source: string;
}

/** Keywords whose value is a subschema, a list of them, or a map of them (draft-07 and later). */
const ONE = ['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'if', 'then', 'else', 'not', 'unevaluatedItems', 'unevaluatedProperties', 'items'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'items', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'];

/**
 * Every subschema of a schema (itself first) and the keys to it, walking only subschemas: a
 * `pattern` inside an `enum` or a `default` is data. Iterative: a deep schema cannot exhaust the stack.
 */
function subschemas(schema: unknown): { node: Record<string, unknown>; path: string[] }[] {
  const found: { node: Record<string, unknown>; path: string[] }[] = [];
  const todo: { node: unknown; path: string[] }[] = [{ node: schema, path: [] }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const { node, path } = next;
    if (!isRecord(node)) continue;
    found.push({ node, path });
    for (const k of ONE) if (isRecord(node[k])) todo.push({ node: node[k], path: [...path, k] });
    for (const k of LIST) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((s, i) => todo.push({ node: s, path: [...path, k, String(i)] }));
    }
    for (const k of MAP) {
      const map = node[k];
      if (isRecord(map)) for (const [key, s] of Object.entries(map)) todo.push({ node: s, path: [...path, k, key] });
    }
  }
  return found;
}

/** Every regular expression of a schema: `pattern` values and `patternProperties` keys. */
export function schemaPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  for (const { node, path } of subschemas(schema)) {
    if (typeof node['pattern'] === 'string') found.push({ path: [...path, 'pattern'], source: node['pattern'] });
    if (isRecord(node['patternProperties'])) {
      for (const key of Object.keys(node['patternProperties'])) found.push({ path: [...path, 'patternProperties', key], source: key });
    }
  }
  return found;
}

/**
 * The first `enum` value equal to an earlier one, in linear time (meta-schema.ts leaves it out of
 * the meta-schema, where ajv compares every pair): where, and what.
 */
export function duplicateEnumValue(schema: unknown): { path: string[]; error: string } | undefined {
  for (const { node, path } of subschemas(schema)) {
    const values = node['enum'];
    if (!Array.isArray(values)) continue;
    const seen = new Map<string, number>();
    for (let i = 0; i < values.length; i++) {
      const key = stableJson(values[i]);
      const first = seen.get(key);
      if (first !== undefined) {
        const shown = JSON.stringify(values[i]);
        return { path: [...path, 'enum', String(i)], error: `invalid JSON schema: enum values ${first} and ${i} are the same (${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown})` };
      }
      seen.set(key, i);
    }
  }
  return undefined;
}

/** The first pattern of a schema the linear engine refuses: where, and why; undefined when all run. */
export function refusedPattern(schema: unknown): { path: string[]; error: string } | undefined {
  for (const p of schemaPatterns(schema)) {
    const compiled = compileUserRegex(p.source, 'u');
    if (!compiled.ok) return { path: p.path, error: compiled.error };
  }
  return undefined;
}

/**
 * ajv's `code.regExp`: a schema's patterns run in the linear-time engine (JSON Schema patterns are
 * ECMA-262 with the u flag). `refusedPattern` reports a refused one first, where it is written.
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): UserRegex => {
    const compiled = compileUserRegex(pattern, flags);
    if (!compiled.ok) throw new Error(compiled.error);
    return compiled.regex;
  },
  { code: 'roleflowLinearRegExp' },
);

/**
 * The JSON pointer of a refused pattern below `base`, and for a `patternProperties` key, that
 * key: an error points at the pattern as written.
 */
export function patternPointer(base: string, path: readonly string[]): { pointer: string; key?: string } {
  const keyed = path.length >= 2 && path[path.length - 2] === 'patternProperties';
  const pointer = ptr(base, ...(keyed ? path.slice(0, -1) : path));
  return keyed ? { pointer, key: path[path.length - 1]! } : { pointer };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
