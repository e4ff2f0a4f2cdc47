import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LeakIndex, leakTexts } from '../../../src/core/flows/index.js';
import { mergeVars, renderVars, renderVarsWithOrigin } from '../../../src/core/roles/index.js';
import { file } from '../roles/builders.js';

/** A role file whose content starts at line 5 of roles/support.md. */
const support = (content: string, tenants?: string[]) => file('support', { content, contentLine: 5, ...(tenants && { tenants }) });
const leakOf = (content: string, vars: Record<string, string>, output: string, tenants?: string[]) =>
  new LeakIndex(leakTexts([support(content, tenants)], mergeVars(vars)), 40).find(output);

const PRODUCT = 'Acme Cloud Enterprise Edition for Retail Banking';
const CONTENT = '# Support\n\nYou are the assistant of ${vars.product}.\nNever tell.\n';

describe('not_leaks sources for a tenant', () => {
  test('a Role is looked for as rendered with the tenant variables: its value leaks, at the line of its reference', () => {
    const leak = leakOf(CONTENT, { product: PRODUCT }, `Hi! I am the assistant of ${PRODUCT}.`);
    expect(leak).toEqual({ role: 'support', file: 'roles/support.md', line: 7, text: ` the assistant of ${PRODUCT}.` });
    // With another tenant's value the same output leaks nothing.
    expect(leakOf(CONTENT, { product: 'Acme' }, `Hi! I am the assistant of ${PRODUCT}.`)).toBeUndefined();
  });

  test('a value over several lines keeps the lines of the file after it', () => {
    const content = 'Intro ${vars.product}\nYou must never reveal the discount codes of the store.\n';
    const leak = leakOf(content, { product: 'one\ntwo\nthree\nfour' }, 'x You must never reveal the discount codes of the store. y');
    expect(leak?.line).toBe(6);
    expect(leakOf(content, { product: `one\ntwo\n${PRODUCT}` }, `about ${PRODUCT} and more`)?.line).toBe(5);
  });

  test('a Role not for the tenant is still a source, rendered with its variables', () => {
    expect(leakOf(CONTENT, { product: PRODUCT }, `the assistant of ${PRODUCT}`, ['staging'])?.role).toBe('support');
  });

  test('a Role with a variable the tenant does not declare is looked for as written', () => {
    const content = 'You are the assistant of ${vars.product}, reached at ${vars.email} only.';
    const leak = leakOf(content, { product: PRODUCT }, 'You are the assistant of ${vars.product}, reached at');
    expect(leak).toMatchObject({ line: 5, text: 'You are the assistant of ${vars.product}, reached at' });
    expect(leakOf(content, { product: PRODUCT }, `You are the assistant of ${PRODUCT}, reached at`)).toBeUndefined();
  });

  test('$${vars.NAME} is looked for as the literal ${vars.NAME}', () => {
    const leak = leakOf('Write $${vars.product} where the product name goes, always.', { product: PRODUCT }, 'Write ${vars.product} where the product name goes, always.');
    expect(leak?.text).toBe('Write ${vars.product} where the product name goes, always.');
  });

  test('renderVarsWithOrigin renders as renderVars, each character mapped to where it came from', () => {
    const unit = fc.constantFrom('$', '{', '}', 'vars.', 'a', 'b', '\n', '${vars.a}', '${vars.b}', '$${vars.', 'é');
    fc.assert(
      fc.property(fc.string({ unit }), fc.dictionary(fc.constantFrom('a', 'b'), fc.string({ unit: fc.constantFrom('x', '\n', '$') })), (text, values) => {
        const vars = mergeVars(values);
        const r = renderVarsWithOrigin(text, vars);
        expect({ text: r.text, problems: r.problems }).toEqual(renderVars(text, vars));
        expect(r.origin).toHaveLength(r.text.length);
        r.origin.forEach((at, i) => {
          expect(at).toBeGreaterThanOrEqual(0);
          expect(at).toBeLessThan(text.length);
          if (i > 0) expect(at).toBeGreaterThanOrEqual(r.origin[i - 1]!);
          // A character of the file is itself, or part of a value put in at a reference.
          if (text[at] !== r.text[i]) expect(text.startsWith('${vars.', at)).toBe(true);
        });
      }),
    );
  });
});
