import type { ValidateFunction } from 'ajv';

/**
 * Validators of the schemas in `schemas/` (a function building each), by the schema's JSON text. Empty here, so code run from
 * src/ (vitest) compiles every schema at run time; the build (scripts/build.mjs) replaces this
 * module with ajv standalone validators generated from `schemas/` (scripts/standalone-validators.mjs),
 * so the CLI compiles none at start-up. A schema whose text is not here is compiled as before.
 */
export const precompiled: ReadonlyMap<string, () => ValidateFunction> = new Map();

/**
 * The draft-07 meta-schema (ajv's `json-schema-draft-07.json`) as a standalone validator, for
 * checking a user's schema without ajv compiling the meta-schema first; undefined here, so code
 * run from src/ lets ajv check it (`validateSchema`), the built CLI has the generated one.
 */
export const draft07MetaSchema: (() => ValidateFunction) | undefined = undefined;
