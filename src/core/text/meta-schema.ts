import { Ajv, type Options } from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

/**
 * ajv's draft-07 meta-schema less `uniqueItems` on `enum`: ajv checks that keyword by deep-comparing
 * every pair of values (an enum's values may be objects), so checking a schema with a 200,000-value
 * enum took minutes. `duplicateEnumValue` (schema-patterns.ts's walk) says the same in linear time.
 * scripts/standalone-validators.mjs builds its validators with the same meta-schema.
 */
const { uniqueItems: _quadratic, ...enumKeyword } = draft07.properties.enum;
export const LINEAR_DRAFT_07 = { ...draft07, properties: { ...draft07.properties, enum: enumKeyword } };

/**
 * ajv's code gathers the errors of a `$ref`'d schema with `vErrors.concat(…)`: a copy of every
 * error so far for each failing item, quadratic for a file with tens of thousands of problems.
 * Appended in place instead, as ajv's own errors are. scripts/standalone-validators.mjs does the same.
 */
export function linearErrors(code: string): string {
  return code.replace(/vErrors = vErrors === null \? ([\w.]+) : vErrors\.concat\(\1\)/g, 'vErrors = vErrors === null ? $1 : ((a, b) => { for (const e of b) a.push(e); return a; })(vErrors, $1)');
}

/** An ajv whose draft-07 meta-schema (for `validateSchema`, and `$ref`s to it) is LINEAR_DRAFT_07, its errors gathered in linear time. */
export function draft07Ajv(options: Options): Ajv {
  const ajv = new Ajv({ ...options, meta: false, code: { ...options.code, process: linearErrors } });
  ajv.addMetaSchema(LINEAR_DRAFT_07, DRAFT_07, false);
  return ajv;
}
