import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { onFirstUse } from '../../text/first-use.js';
import { draft07Ajv } from '../../text/meta-schema.js';
import { draft07MetaSchema } from '../../text/precompiled-schemas.js';
import { describeSchemaError } from '../../text/schema.js';
import type { SchemaCheck } from '../types.js';
import { duplicateEnumValue, linearRegExp, refusedPattern } from './schema-patterns.js';

/** The problems of a value against a user's schema, each `path: what is wrong`; empty when it conforms. */
export type { SchemaCheck } from '../types.js';

// Schemas inside test files are the user's: a separate instance that never registers their `$id`s,
// so loading the same file twice (watch mode, tests) cannot collide. `verbose` keeps the failing
// value and schema in each error: a failure says what it got and which key was meant.
// Their patterns run in the linear-time engine (schema-patterns.ts).
const USER_AJV = { allErrors: true, strict: false, addUsedSchema: false, verbose: true, code: { regExp: linearRegExp } };

/** At most this many problems are named per failure: the first ones say what to fix. */
const SHOWN = 3;
/** At most this many values of an enum are named in a failure. */
const SHOWN_VALUES = 20;

/** What compiling a user's schema gives: its check, or why it cannot be used (one line). */
export type CompiledUserSchema = { ok: true; check: SchemaCheck } | { ok: false; error: string; shape?: readonly ErrorObject[]; at?: string[] };

/** `$schema` values naming draft-07, the meta-schema ajv checks a schema without one against. */
const DRAFT_07 = new Set([undefined, 'http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#']);

/**
 * A compiler of user schemas. With `meta`, the draft-07 meta-schema as a validator generated at
 * build time (precompiled-schemas.ts), a schema of draft-07 is checked with it and compiled by an
 * ajv that does not check it again (ajv would compile the meta-schema first). Without (code run
 * from src/), or for another `$schema`, ajv checks it.
 * test/core/flows/schema-check.test.ts proves both ways give the same results.
 */
export function userSchemaCompiler(meta: (() => ValidateFunction) | undefined): (schema: object) => CompiledUserSchema {
  let checkingAjv: Ajv | undefined;
  let trustingAjv: Ajv | undefined;
  let metaCheck: ValidateFunction | undefined;
  // Suites repeat one schema across many tests, and compiling it costs far more than reading it:
  // one check per distinct schema text, for the whole run.
  const checks = new Map<string, SchemaCheck>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let check = checks.get(key);
    if (check !== undefined) return { ok: true, check };
    // `$id` names the schema for editors; compiled without it, a schema file loaded for two flow
    // files (or twice) never collides in ajv's registry. Its `$ref`s within it are local.
    const { $id: _id, ...anonymous } = schema as { $id?: unknown };
    const generated = meta !== undefined && DRAFT_07.has((anonymous as { $schema?: unknown }).$schema as string | undefined);
    const ajv = generated ? (trustingAjv ??= draft07Ajv({ ...USER_AJV, validateSchema: false })) : (checkingAjv ??= draft07Ajv(USER_AJV));
    // A schema of the wrong shape: its meta-schema's errors, for the caller to report at the faulty keys.
    const shapeErrors = generated ? errorsOf((metaCheck ??= meta()), anonymous) : ajv.validateSchema(anonymous) ? null : ajv.errors;
    if (shapeErrors) return { ok: false, error: `invalid JSON schema: ${ajv.errorsText(shapeErrors, { dataVar: 'schema' })}`, shape: shapeErrors };
    const refused = refusedPattern(anonymous) ?? duplicateEnumValue(anonymous);
    if (refused) return { ok: false, error: refused.error, at: refused.path };
    try {
      const validate = ajv.compile(anonymous);
      check = (value, path) => (validate(value) ? [] : (validate.errors ?? []).filter(notNoise).slice(0, SHOWN).map((e) => describeFailure(path, e)));
    } catch (err) {
      return { ok: false, error: `invalid JSON schema: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]!}` };
    } finally {
      // Each schema is compiled on its own: a `$id` inside one is no name another can `$ref`, so
      // whether a schema compiles does not depend on what compiled before it. What the compile
      // registered goes; ajv's meta-schemas stay.
      ajv.removeSchema();
    }
    checks.set(key, check);
    return { ok: true, check };
  };
}

/**
 * Compile a user's JSON Schema (draft-07; `$ref`s within it resolved) once per distinct schema.
 * A schema ajv refuses (an unknown type, a `$ref` to nowhere) is the reason, one line.
 */
// Made on first use: most runs compile no user schema.
const compiler = onFirstUse(() => userSchemaCompiler(draft07MetaSchema));
export const compileUserSchema = (schema: object): CompiledUserSchema => compiler()(schema);

function errorsOf(validate: ValidateFunction, value: unknown): ErrorObject[] | null {
  return validate(value) ? null : (validate.errors ?? []);
}

/**
 * One problem, at the failing value's path from the outputs' root: `results[0].label: must be one
 * of support, billing`.
 */
export function describeFailure(path: string, e: ErrorObject): string {
  const where = path + instanceSuffix(e.instancePath);
  if (e.keyword === 'enum') {
    const allowed = e.params['allowedValues'] as unknown[];
    const more = allowed.length > SHOWN_VALUES ? `, … (${allowed.length} values)` : '';
    return `${where}: must be one of ${allowed.slice(0, SHOWN_VALUES).map(plain).join(', ')}${more}`;
  }
  if (e.keyword === 'const') return `${where}: must be ${plain(e.params['allowedValue'])}`;
  return `${where}: ${describeSchemaError({ ...e, instancePath: '' })}`;
}

/** `/items/0/label` → `.items[0].label`. */
function instanceSuffix(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[^.[\]"]+$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
    .join('');
}

/** A string as it reads (`support`), anything else as JSON. */
function plain(v: unknown): string {
  return typeof v === 'string' && /^[^\s,"]+$/.test(v) ? v : JSON.stringify(v);
}

// `anyOf`/`oneOf`/`if` wrappers repeat what their branches already said.
function notNoise(e: ErrorObject): boolean {
  return e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if';
}
