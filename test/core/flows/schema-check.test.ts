import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userSchemaCompiler, type CompiledUserSchema } from '../../../src/core/flows/checks/schema-check.js';
import { repoRoot } from '../../helpers/cli.js';
// @ts-expect-error: a plain build script, no types
import { draft07MetaCode } from '../../../scripts/standalone-validators.mjs';

// The built CLI checks a user's schema with the draft-07 meta-schema generated at build time and
// compiles it with an ajv that does not check it again; code run from src/ lets ajv do both. For
// any schema, valid or not, both must give the same verdict, the same one-line reason, and checks
// that find the same problems.

const requireFromRepo = createRequire(join(repoRoot, 'package.json'));
const generatedMeta = (): ValidateFunction => {
  const module = { exports: {} as unknown };
  new Function('module', 'require', draft07MetaCode() as string)(module, requireFromRepo);
  return module.exports as ValidateFunction;
};

const KEYWORDS = ['type', 'properties', 'required', 'items', 'enum', 'const', 'minimum', 'maxLength', 'pattern', 'additionalProperties', 'anyOf', 'oneOf', 'not', '$ref', 'definitions', 'format', 'minItems', 'if', 'then', '$schema', '$id', 'x'];
const leaf = fc.oneof(
  fc.constantFrom('string', 'object', 'array', 'integer', 'number', 'boolean', 'null', 'strin', '#', '#/definitions/a', '#/nope', 'http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema', 'https://json-schema.org/draft/2020-12/schema', 'a', '^a+$', '(', 'date-time'),
  fc.integer({ min: -2, max: 5 }),
  fc.boolean(),
  fc.constant(null),
);
const schemaLike = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYWORDS, 'a', 'b'), tie('node'), { maxKeys: 4 }),
  ),
})).node;
const schemas = fc.dictionary(fc.constantFrom(...KEYWORDS), schemaLike, { maxKeys: 5 });
const values = fc.array(fc.anything({ maxDepth: 2, key: fc.constantFrom('a', 'b', 'x') }), { minLength: 1, maxLength: 4 });

/** What a user sees of a compiled schema: the verdict and reason, or the problems found in values. */
function seen(compiled: CompiledUserSchema, inputs: unknown[]): unknown {
  if (!compiled.ok) return compiled;
  return inputs.map((value) => compiled.check(value, 'out'));
}

/** The outcome, or the error thrown (a non-string `$schema` throws in ajv, as before). */
function outcome(compile: (schema: object) => CompiledUserSchema, schema: object, inputs: unknown[]): unknown {
  try {
    return seen(compile(schema), inputs);
  } catch (error) {
    return { thrown: String(error) };
  }
}

describe('user schemas checked with the generated draft-07 meta-schema', () => {
  it('give what ajv gives for any schema: verdict, reason and the problems found', () => {
    fc.assert(
      fc.property(schemas, values, (schema, inputs) => {
        expect(outcome(userSchemaCompiler(generatedMeta), schema, inputs)).toEqual(outcome(userSchemaCompiler(undefined), schema, inputs));
      }),
      { numRuns: 300 },
    );
  });

  it('give the same for the schemas users write: the repository one, a bad type, a $ref to nowhere', () => {
    const cases: object[] = [
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['label'], properties: { label: { enum: ['support', 'billing'] } } },
      { type: 'strng' },
      { properties: { a: { $ref: '#/definitions/nope' } } },
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } } },
    ];
    const inputs = [{ label: 'sales' }, [{ n: 0 }, { n: 'x' }], 'text', { a: 1 }];
    for (const schema of cases) {
      const fast = outcome(userSchemaCompiler(generatedMeta), schema, inputs);
      expect(fast, JSON.stringify(schema)).toEqual(outcome(userSchemaCompiler(undefined), schema, inputs));
    }
    // The cases cover both verdicts, so the comparison above can fail either way.
    expect(outcome(userSchemaCompiler(undefined), cases[1]!, inputs)).toMatchObject({ ok: false, shape: expect.arrayContaining([expect.objectContaining({ instancePath: '/type', keyword: 'enum' })]) });
    expect(outcome(userSchemaCompiler(undefined), cases[0]!, inputs)).toEqual([['out.label: must be one of support, billing'], ['out: must be object, got array'], ['out: must be object, got string'], ['out: missing required key "label"']]);
  });
});

describe('user schemas compiled one after another', () => {
  it.each([
    ['with ajv checking them', () => userSchemaCompiler(undefined)],
    ['with the generated meta-schema', () => userSchemaCompiler(generatedMeta)],
  ])('compile each on its own (%s): a $id inside one is no name another can $ref', (_, compiler) => {
    const withId = { properties: { p: { $ref: 'http://example.com/x' } }, definitions: { x: { $id: 'http://example.com/x', type: 'string' } } };
    const refersToIt = { $ref: 'http://example.com/x', definitions: { x: { type: 'string' } } };
    const alone = compiler()(refersToIt);
    expect(alone).toMatchObject({ ok: false, error: expect.stringMatching(/can't resolve reference/) });
    const compile = compiler();
    expect(compile(withId).ok).toBe(true);
    expect(compile(refersToIt)).toEqual(alone);
    // The first still works after what it registered went.
    const first = compile(withId);
    if (!first.ok) throw new Error(first.error);
    expect(first.check({ p: 'a' }, 'out')).toEqual([]);
    expect(first.check({ p: 1 }, 'out')).toHaveLength(1);
  });
});
