import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Issue, Result } from './issues.js';
import { validatorOf } from './precompiled-schemas.js';
import type { YamlSource } from './yaml-source.js';

/**
 * JSON Schema validation whose problems come back as `file:line:col` issues.
 * The schemas live in `schemas/` (also used by editors); callers pass them in, so this stays pure.
 * precompiled-schemas.ts makes each validator: in the built CLI, ones generated at build time.
 */
const compiled = new WeakMap<object, ValidateFunction>();

export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = validatorOf(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Validate a parsed YAML value against a schema; every error is located in the file. */
export function validateAgainst<T>(schema: object, source: YamlSource, file: string): Result<T> {
  const validate = compileSchema(schema);
  if (validate(source.value)) return { ok: true, value: source.value as T };
  const issues = dedupe(
    schemaProblems(validate.errors ?? []).map(({ pointer, key, message }) => ({ file, ...source.locate(pointer, key === undefined ? undefined : { key }), message })),
  );
  return { ok: false, issues };
}

/**
 * The errors of a schema check as problems to locate: each at its JSON pointer (with `at`, the
 * pointer of the checked value in its file, before it) and, for a key, the key; said in words,
 * the message naming the path unless `named: false` (the caller names it).
 */
export function schemaProblems(errors: readonly ErrorObject[], at = '', opts: { named?: boolean } = {}): { pointer: string; key?: string; message: string }[] {
  return withoutOtherShapes(errors)
    .filter(notNoise)
    .map((error) => {
      const pointer = `${at}${error.instancePath}`;
      const key = error.keyword === 'additionalProperties' ? String(error.params['additionalProperty']) : error.propertyName;
      const message = describeSchemaError(opts.named === false ? { ...error, instancePath: '' } : { ...error, instancePath: pointer });
      return { pointer, ...(key !== undefined && { key }), message };
    });
}

/** One sentence a user understands, naming the key; with a suggestion for a mistyped key. */
export function describeSchemaError(e: ErrorObject): string {
  const where = e.instancePath === '' ? '' : `${pointerToPath(e.instancePath)}: `;
  if (e.propertyName !== undefined) {
    // A key that `propertyNames` refuses: one line naming it, with the rule in words when the schema has them.
    const rule = (e.parentSchema as { description?: unknown } | undefined)?.description;
    const inner = describeSchemaError({ ...e, instancePath: '', propertyName: undefined } as ErrorObject);
    return `${where}${JSON.stringify(e.propertyName)} is not a valid name: ${typeof rule === 'string' ? rule : inner}`;
  }
  switch (e.keyword) {
    case 'required':
      return `${where}missing required key "${String(e.params['missingProperty'])}"`;
    case 'additionalProperties': {
      const unknown = String(e.params['additionalProperty']);
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closest(unknown, allowed);
      const hint = guess ? ` (did you mean "${guess}"?)` : allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
      return `${where}unknown key "${unknown}"${hint}`;
    }
    case 'type':
      return `${where}must be ${String(e.params['type'])}, got ${typeName(e.data)}`;
    case 'enum':
      return `${where}must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where}must be ${JSON.stringify(e.params['allowedValue'])}`;
    case 'minLength':
      return `${where}must not be empty`;
    case 'maximum':
      return `${where}must be at most ${String(e.params['limit'])}, got ${String(e.data)}`;
    default:
      return `${where}${e.message ?? 'is invalid'}`;
  }
}

/** `/tests/0/expect` → `tests[0].expect`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc === '' ? seg : `${acc}.${seg}`), '');
}

// `oneOf`/`anyOf`/`if` wrappers repeat what their branches already said.
function notNoise(e: ErrorObject): boolean {
  // `propertyNames` repeats the error about the key itself, which names it.
  return e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if' && e.keyword !== 'propertyNames';
}

/**
 * An `anyOf` of shapes (a name, or a list of names) fails every branch for a wrong value; the
 * branches of another type only say "must be array", which hides what was wrong with the value
 * given. When a branch got as far as checking the value itself, its errors are the ones shown.
 */
function withoutOtherShapes(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOfOf = (e: ErrorObject): string | undefined => /^(.*\/anyOf)\/\d+\//.exec(e.schemaPath)?.[1];
  const reached = new Set(errors.filter((e) => e.keyword !== 'type' && anyOfOf(e) !== undefined).map((e) => `${e.instancePath} ${anyOfOf(e)}`));
  return errors.filter((e) => e.keyword !== 'type' || !reached.has(`${e.instancePath} ${anyOfOf(e)}`));
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.line}:${i.col}:${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** The candidate nearest to a mistyped word, when one is near enough to be a likely typo. */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = levenshtein(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
