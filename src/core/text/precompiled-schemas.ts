import type { Ajv, ValidateFunction } from 'ajv';
import { draft07Ajv } from './meta-schema.js';

/**
 * The validator of a schema. Here (code run from src/, vitest) every schema is compiled at run
 * time by one ajv made on first use. The build (scripts/build.mjs) replaces this module with one
 * holding ajv standalone validators generated from `schemas/` (scripts/standalone-validators.mjs,
 * with these ajv options), which compiles only a schema it does not hold and loads ajv only then:
 * most commands never load it. test/core/schema-standalone.test.ts proves both give the same errors.
 */
let ajv: Ajv | undefined;

export function validatorOf(schema: object): ValidateFunction {
  ajv ??= draft07Ajv({ allErrors: true, strict: false, verbose: true });
  // `$id` is for editors and readers: compiled without it, two versions of one schema (a test's
  // variant, a schema loaded twice) never collide in ajv's registry. Refs inside are local.
  const { $id: _id, ...anonymous } = schema as { $id?: unknown };
  return ajv.compile(anonymous);
}

/**
 * The draft-07 meta-schema (ajv's `json-schema-draft-07.json`) as a standalone validator, for
 * checking a user's schema without ajv compiling the meta-schema first; undefined here, so code
 * run from src/ lets ajv check it (`validateSchema`), the built CLI has the generated one.
 */
export const draft07MetaSchema: (() => ValidateFunction) | undefined = undefined;
