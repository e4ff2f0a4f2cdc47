import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { escapeVars, mergeVars, parseRoleFile, renderRoleFiles, renderVars, serializeRoleFile, varIssuesOfTenants } from '../../../src/core/roles/index.js';
import { roleSchema } from './builders.js';

const vars = mergeVars({ product: 'Acme', email: 'help@acme.test' }, { product: 'Acme EU' });

function parsed(text: string) {
  const r = parseRoleFile(text, 'roles/a.md', roleSchema);
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return r.value;
}

describe('renderVars', () => {
  test('puts in the tenant value; its own vars win over the defaults', () => {
    expect(renderVars('Support for ${vars.product}: ${vars.email}', vars)).toEqual({ text: 'Support for Acme EU: help@acme.test', problems: [] });
  });

  test('$${vars.NAME} is the literal text; other placeholders are left alone', () => {
    const text = 'Say $${vars.product}, {{user}}, ${input}, ${env:HOME}, $x, $$, ${vars}';
    expect(renderVars(text, vars).text).toBe('Say ${vars.product}, {{user}}, ${input}, ${env:HOME}, $x, $$, ${vars}');
  });

  test('a value is put in as it is, never rendered again', () => {
    expect(renderVars('${vars.a}', mergeVars({ a: '${vars.b}', b: 'x' })).text).toBe('${vars.b}');
  });

  test('undeclared and malformed references are problems at their index', () => {
    expect(renderVars('ab ${vars.nope} ${vars.} ${vars.constructor}', vars).problems).toEqual([
      { index: 3, name: 'nope' },
      { index: 16, },
      { index: 25, name: 'constructor' },
    ]);
  });

  test('escaping then rendering gives back the original text, whatever the variables', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('$', '{', '}', 'vars', '.', 'a', '$${vars.', '${vars.a}', '\n') }), fc.dictionary(fc.constantFrom('a', 'b'), fc.string()), (text, values) => {
        const r = renderVars(escapeVars(text), mergeVars(values));
        expect(r).toEqual({ text, problems: [] });
      }),
    );
  });

  test('text without "${vars." is unchanged, and rendering never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.includes('${vars.'));
        expect(renderVars(text, vars)).toEqual({ text, problems: [] });
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('$', '{', '}', 'vars.', 'product', 'x', '\n', '💥') }), (text) => {
        expect(() => renderVars(text, vars)).not.toThrow();
      }),
    );
  });
});

describe('renderRoleFiles', () => {
  test('renders description and content; an undeclared variable is located in the file', () => {
    const file = parsed('---\nname: a\ndescription: "For ${vars.product}"\n---\nHello.\nWrite to ${vars.email} or ${vars.phone}.\n');
    const ok = renderRoleFiles([file], 'staging', vars);
    expect(ok.ok).toBe(false);
    const issues = ok.ok ? [] : ok.issues.map(formatIssue);
    expect(issues).toEqual([
      'roles/a.md:6:27: content: ${vars.phone} is not declared for tenant "staging": declare it under vars: in the config (or a tenant\'s vars:), or write $${vars.phone} for the text itself',
    ]);
    const good = renderRoleFiles([file], 'staging', mergeVars({ product: 'P', email: 'e', phone: '1' }));
    expect(good.ok && good.value[0]).toMatchObject({ description: 'For P', content: 'Hello.\nWrite to e or 1.' });
  });

  test.each([
    ['quoted', '---\nname: a\ndescription: "Hi ${vars.x}"\n---\nc\n', '3:18'],
    ['plain, with tenants: (no fast path)', '---\nname: a\ntenants: [s]\ndescription: Hi ${vars.x}\n---\nc\n', '4:17'],
    ['single-quoted', "---\nname: a\ndescription: 'Hi ${vars.x}'\n---\nc\n", '3:18'],
    ['folded: where its value starts', '---\nname: a\ndescription: >-\n  about ${vars.x}\n---\nc\n', '3:14'],
    ['with escapes: where its value starts', '---\nname: a\ndescription: "\\t${vars.x}"\n---\nc\n', '3:14'],
  ])('a problem in a %s description is located', (_, text, at) => {
    const r = renderRoleFiles([parsed(text)], 'production', mergeVars({}));
    expect(r.ok ? [] : r.issues.map((i) => `${i.line}:${i.col}`)).toEqual([at]);
  });

  test('validate names every tenant that lacks a variable, once per place', () => {
    const file = parsed('---\nname: a\ndescription: d\n---\n${vars.region}\n');
    const issues = varIssuesOfTenants([
      { name: 'local', vars: mergeVars({}), files: [file] },
      { name: 'staging', vars: mergeVars({ region: 'eu' }), files: [file] },
      { name: 'production', vars: mergeVars({}), files: [file] },
    ]).map(formatIssue);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^roles\/a\.md:5:1: content: \$\{vars\.region\} is not declared for tenants "local", "production":/);
  });

  test("what pull writes (escaped) renders back to the tenant's Role, whatever the variables", () => {
    const text = fc.string({ unit: fc.constantFrom('$', '{', '}', 'vars.', 'a', ' ', '\n', '\r', '${vars.a}', '$${vars.', 'é') });
    fc.assert(
      fc.property(text, text, fc.dictionary(fc.constantFrom('a', 'b'), fc.string()), (description, content, values) => {
        const written = serializeRoleFile({ name: 'r', description: escapeVars(description), content: escapeVars(content) });
        const r = renderRoleFiles([parsed(written)], 't', mergeVars(values));
        expect(r.ok && { description: r.value[0]!.description, content: r.value[0]!.content }).toEqual({ description, content });
      }),
    );
  });
});
