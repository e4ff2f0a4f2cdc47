import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { escapeVars, MAX_SENT_ROLE_BYTES, mergeVars, parseRoleFile, renderRoleFiles, renderVars, serializeRoleFile, varIssuesOfTenants } from '../../../src/core/roles/index.js';
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

describe('rendered size', () => {
  const big = (n: number) => 'x'.repeat(n);

  test('a variable used 1000 times does not throw: the text is cut at the bound and said to be', () => {
    const r = renderVars('${vars.big}'.repeat(1000), mergeVars({ big: big(700_000) }));
    expect(r.tooLong).toBe(true);
    expect(r.text.length).toBe(MAX_SENT_ROLE_BYTES);
  });

  test('a Role rendering over the limit is an issue naming the file, the tenant and the size', () => {
    const file = parsed('---\nname: big\ndescription: d\n---\n${vars.big} and ${vars.big}\n');
    const r = renderRoleFiles([file], 'staging', mergeVars({ big: big(700_000) }));
    expect(r.ok).toBe(false);
    const lines = r.ok ? [] : r.issues.map(formatIssue);
    expect(lines).toEqual([expect.stringMatching(/^roles\/a\.md:5:1: the Role renders to 1,400,\d{3} bytes for tenant "staging", over the limit of 1,047,552 bytes/)]);
    expect(renderRoleFiles([file], 'staging', mergeVars({ big: big(1000) })).ok).toBe(true);
  });

  test('cut while rendering: "more than" the limit', () => {
    const file = parsed('---\nname: big\ndescription: d\n---\n' + '${vars.big}'.repeat(1000) + '\n');
    const r = renderRoleFiles([file], 'staging', mergeVars({ big: big(700_000) }));
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([expect.stringMatching(/renders to more than 4,190,208 bytes for tenant "staging"/)]);
  });

  test('JSON escaping counts: content of control characters within the file cap is still too big to send', () => {
    const file = parsed('---\nname: big\ndescription: d\n---\n${vars.c}\n');
    const r = renderRoleFiles([file], 'local', mergeVars({ c: '\u0001'.repeat(200_000) }));
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([expect.stringMatching(/renders to 1,200,0\d\d bytes for tenant "local"/)]);
  });

  test('a file with nothing to render is still checked: control characters written in it escape past the limit', () => {
    const file = parsed('---\nname: big\ndescription: d\n---\n' + '\u0001'.repeat(200_000) + '\n');
    const r = renderRoleFiles([file], 'local', mergeVars({}));
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([expect.stringMatching(/^roles\/a\.md:5:1: the Role renders to 1,200,0\d\d bytes for tenant "local"/)]);
    const fine = parsed('---\nname: fine\ndescription: d\n---\n' + '\u0001'.repeat(100_000) + '\n');
    expect(renderRoleFiles([fine], 'local', mergeVars({}))).toEqual({ ok: true, value: [fine] });
  });

  test('validate names every tenant over the limit, once per size', () => {
    const file = parsed('---\nname: big\ndescription: d\n---\n${vars.big}${vars.big}\n');
    const issues = varIssuesOfTenants([
      { name: 'staging', vars: mergeVars({ big: big(600_000) }), files: [file] },
      { name: 'production', vars: mergeVars({ big: big(600_000) }), files: [file] },
      { name: 'local', vars: mergeVars({ big: 'small' }), files: [file] },
    ]).map(formatIssue);
    expect(issues).toEqual([expect.stringMatching(/renders to 1,200,\d{3} bytes for tenants "staging", "production", over/)]);
  });

  test('property: any text with any variables renders within the bound or is a located issue, never throws', () => {
    const bound = 200;
    const unit = fc.constantFrom('$', '{', '}', 'vars.', 'a', 'b', '${vars.a}', '${vars.b}', '$${vars.', '💥', '\n');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 300 }), fc.dictionary(fc.constantFrom('a', 'b'), fc.string({ maxLength: 120 })), (text, values) => {
        const r = renderVars(text, mergeVars(values), bound);
        expect(r.text.length).toBeLessThanOrEqual(bound);
        const whole = renderVars(text, mergeVars(values), Number.MAX_SAFE_INTEGER);
        // Within the bound it is the whole text; over it, said so, and the beginning of the whole.
        if (r.tooLong) expect(whole.text.length).toBeGreaterThan(bound);
        else expect(r.text).toBe(whole.text);
        expect(whole.text.startsWith(r.text)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 3000 }), fc.nat({ max: 700_000 }), (text, times, size) => {
        const file = parsed(`---\nname: r\ndescription: d\n---\n${text.repeat(times)}\n`);
        const r = renderRoleFiles([file], 't', mergeVars({ a: big(size), b: 'é'.repeat(size) }));
        if (r.ok) for (const f of r.value) expect(JSON.stringify(f).length).toBeLessThan(MAX_SENT_ROLE_BYTES + 2000);
        else for (const i of r.issues) expect(formatIssue(i)).toMatch(/^roles\/a\.md:\d+:\d+: /);
      }),
      { numRuns: 60 },
    );
  });
});
