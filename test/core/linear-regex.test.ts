import { describe, expect, it } from 'vitest';
import { compileUserRegex, type UserRegex } from '../../src/core/text/linear-regex.js';
import { compileUserSchema } from '../../src/core/flows/index.js';
import { formatIssue } from '../../src/core/errors.js';
import { parseFlowTestFile } from '../../src/core/flows/index.js';
import { loadSchema } from '../../src/files/package-root.js';

function regex(source: string, flags = ''): UserRegex {
  const r = compileUserRegex(source, flags);
  if (!r.ok) throw new Error(r.error);
  return r.regex;
}

/** With a backtracking engine, each of these runs for longer than the universe has existed. */
const CATASTROPHIC = ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '(x+x+)+y', '^([a-z]+)*[0-9]$'];
const POISON = `${'a'.repeat(5000)}b`;

describe('user regexes run in a linear-time engine', () => {
  it.each(CATASTROPHIC)('%s answers on a poison string at once', (source) => {
    expect(regex(source).test(POISON)).toBe(false);
    expect(regex(source).test('x'.repeat(50_000))).toBe(false);
  });

  it('means what the JavaScript pattern means: flags, classes, \\s, ., lookbehind, named groups, escapes', () => {
    expect(regex('^(a+)+$').test('aaaa')).toBe(true);
    expect(regex('refund', 'i').test('REFUND me')).toBe(true);
    expect(regex('^b$', 'm').test('a\nb\nc')).toBe(true);
    expect(regex('^b$').test('a\nb\nc')).toBe(false);
    expect(regex('a.b').test('a\nb')).toBe(false);
    expect(regex('a.b', 's').test('a\nb')).toBe(true);
    // JavaScript's . stops at every line terminator, its \s takes Unicode spaces.
    expect(regex('a.b').test('a\rb')).toBe(false);
    expect(regex('a\\sb').test('a\u00a0b')).toBe(true);
    expect(regex('a[\\s,]b').test('a\u2003b')).toBe(true);
    expect(regex('a\\Sb').test('a\u00a0b')).toBe(false);
    expect(regex('(?<=\\$)\\d+').test('cost: $42')).toBe(true);
    expect(regex('(?<!\\$)\\b\\d+').test('$42')).toBe(false);
    expect(regex('(?<year>\\d{4})-\\d{2}').test('on 2024-05')).toBe(true);
    expect(regex('\\u00e9t\\u00e9', 'u').test('été')).toBe(true);
    expect(regex('^\\/api\\/').test('/api/x')).toBe(true);
    expect(regex('^[^]$').test('x')).toBe(true);
    expect(String(regex('a+', 'i'))).toBe('/a+/i');
  });

  it.each([
    ['(?=a)b', 'the lookahead (?=…)'],
    ['x(?!a)', 'the negative lookahead (?!…)'],
    ['(a)\\1', 'the backreference \\1'],
    ['(?<n>a)\\k<n>', 'the backreference \\k<…>'],
    ['(?<=(a))b', 'invalid capture in lookbehind'],
  ])('refuses %s, naming what the engine cannot run', (source, what) => {
    const r = compileUserRegex(source);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain(what);
    expect(!r.ok && r.error).toContain('linear-time engine');
  });

  it('refuses the v flag and an invalid pattern, one line each', () => {
    const v = compileUserRegex('[a--b]', 'v');
    expect(!v.ok && v.error).toMatch(/the v flag is not supported/);
    const bad = compileUserRegex('(unclosed');
    expect(!bad.ok && bad.error).toMatch(/^invalid regular expression "\(unclosed": .*Unterminated group/);
  });
});

describe('a JSON Schema of a flow test', () => {
  it('checks pattern and patternProperties in the linear-time engine', () => {
    const compiled = compileUserSchema({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+x+)+y$': { type: 'number' } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.check({ code: POISON }, 'out')).toEqual(['out.code: must match pattern "^(a+)+$"']);
    const key = `${'x'.repeat(3000)}y`;
    expect(compiled.check({ code: 'aaa', [key]: 'no' }, 'out')).toEqual([`out.${key}: must be number, got string`]);
    expect(compiled.check({ code: 'aaa', [`${'x'.repeat(3000)}z`]: 'no' }, 'out')).toEqual([]);
  });

  it('ignores a "pattern" that is data (in an enum), and refuses one in a subschema with where it is', () => {
    expect(compileUserSchema({ enum: [{ pattern: '(?=x)' }] }).ok).toBe(true);
    const refused = compileUserSchema({ items: [{ anyOf: [{ pattern: '(a)\\1' }] }] });
    expect(refused).toMatchObject({ ok: false, at: ['items', '0', 'anyOf', '0', 'pattern'] });
  });
});

describe('a flow test with a pattern the engine cannot run', () => {
  const issues = (text: string) => {
    const r = parseFlowTestFile(text, 'flows/t.yaml', loadSchema('flow-test'));
    return r.ok ? [] : r.issues.map(formatIssue);
  };

  it('is a located error at the pattern, for matches, pattern and a patternProperties key', () => {
    expect(
      issues(`flow: f
tests:
  - name: t
    expect:
      outputs:
        - { path: a, matches: "/^(?!x)/i" }
        - path: b
          schema:
            properties:
              code: { type: string, pattern: "(a)\\\\1" }
            patternProperties:
              "(?=k)": { type: string }
`),
    ).toEqual([
      expect.stringMatching(/^flows\/t\.yaml:6:31: tests\[0\]\.expect\.outputs\[0\]\.matches: regular expression "\^\(\?!x\)": the negative lookahead \(\?!…\) is not supported/),
      expect.stringMatching(/^flows\/t\.yaml:12:15: tests\[0\]\.expect\.outputs\[1\]\.schema\.patternProperties: regular expression "\(\?=k\)": the lookahead/),
    ]);
  });
});
