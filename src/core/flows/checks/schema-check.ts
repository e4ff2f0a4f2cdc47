import { Ajv, type ErrorObject } from 'ajv';
import { describeSchemaError } from '../../schema.js';

/** The problems of a value against a user's schema, each `path: what is wrong`; empty when it conforms. */
export type SchemaCheck = (value: unknown, path: string) => string[];

// Schemas inside test files are the user's: a separate instance that never registers their `$id`s,
// so loading the same file twice (watch mode, tests) cannot collide. `verbose` keeps the failing
// value and schema in each error: a failure says what it got and which key was meant.
const userAjv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, verbose: true });

// Suites repeat one schema across many tests, and compiling it costs far more than reading it:
// one check per distinct schema text, for the whole run.
const checks = new Map<string, SchemaCheck>();

/** At most this many problems are named per failure: the first ones say what to fix. */
const SHOWN = 3;

/**
 * Compile a user's JSON Schema (draft-07; `$ref`s within it resolved) once per distinct schema.
 * A schema ajv refuses (an unknown type, a `$ref` to nowhere) is the reason, one line.
 */
export function compileUserSchema(schema: object): { ok: true; check: SchemaCheck } | { ok: false; error: string; shape?: true } {
  const key = JSON.stringify(schema);
  let check = checks.get(key);
  if (check === undefined) {
    // `$id` names the schema for editors; compiled without it, a schema file loaded for two flow
    // files (or twice) never collides in ajv's registry. Its `$ref`s within it are local.
    const { $id: _id, ...anonymous } = schema as { $id?: unknown };
    // A schema of the wrong shape is the flow-test schema's to report, at the faulty key.
    if (!userAjv.validateSchema(anonymous)) {
      return { ok: false, error: `invalid JSON schema: ${userAjv.errorsText(userAjv.errors, { dataVar: 'schema' })}`, shape: true };
    }
    try {
      const validate = userAjv.compile(anonymous);
      check = (value, path) => (validate(value) ? [] : (validate.errors ?? []).filter(notNoise).slice(0, SHOWN).map((e) => describeFailure(path, e)));
    } catch (err) {
      return { ok: false, error: `invalid JSON schema: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]!}` };
    }
    checks.set(key, check);
  }
  return { ok: true, check };
}

/**
 * One problem, at the failing value's path from the outputs' root: `results[0].label: must be one
 * of support, billing`.
 */
export function describeFailure(path: string, e: ErrorObject): string {
  const where = path + instanceSuffix(e.instancePath);
  if (e.keyword === 'enum') {
    return `${where}: must be one of ${(e.params['allowedValues'] as unknown[]).map(plain).join(', ')}`;
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
