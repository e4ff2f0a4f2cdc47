import { describe, expect, test } from 'vitest';
import { parseRoleFile } from '../../../src/core/roles/index.js';
import fc from 'fast-check';
import { couldBeNumber, plainIsSimple, plainPattern, quotedInsideIsSimple, quotedInsidePattern, readSimpleFrontMatter, schemaAcceptsSimple } from '../../../src/core/roles/simple-front-matter.js';
import { random, roleSchema } from './builders.js';

// The same schema with a key the fast path does not know: parseRoleFile then always takes the
// YAML parser and the validator, so it is the reference the fast path must agree with.
const fullPathSchema = { ...roleSchema, $defs: {} };

/** parseRoleFile with and without the fast path; `fast` says whether the fast path took the text. */
function both(text: string): { fast: boolean; withFastPath: unknown; reference: unknown } {
  const yaml = /^---\r?\n([\s\S]*?\n)---\r?\n/.exec(text)?.[1] ?? '';
  return {
    fast: readSimpleFrontMatter(yaml) !== undefined,
    withFastPath: parseRoleFile(text, 'roles/a.md', roleSchema),
    reference: parseRoleFile(text, 'roles/a.md', fullPathSchema),
  };
}

// Pieces of values: everyday words, every ASCII punctuation mark, YAML's special words and number
// forms, escapes, whitespace and characters YAML treats specially outside ASCII.
const ATOMS = [
  'a', 'Z', 'support', 'Tier-1', 'agent', 'Über', 'naïve', '0', '1', '9', '42', 'e', 'E', 'x', 'o', 'f',
  ...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split(''),
  ' ', '  ', '\t', ': ', ' #', '- ', '? ', '---', '...',
  'é', 'ß', '—', '’', '€', '✓', '😀', '\u00a0', '\u200b', '\u2028', '\u0085', '\ufeff', '\u0301', '\u3000',
  'true', 'False', 'NULL', 'null', 'Null', 'yes', 'No', 'on', 'OFF', 'y', 'N', '~', '.inf', '-.Inf', '.NaN',
  '1e5', '1E-5', '+12', '-3', '0x1F', '0o17', '1_000', '1.5', '.5', '2001-12-14', '12:30', '6f1c2e4d-0a1b-4c2d-8e3f-9a0b1c2d3e4f',
  '12e4-5', '1e-5', '0e-0', '\\n', '\\"', '\\x41', '\\u00e9', '&a', '*a', '!!str', '!tag', '%YAML', '|', '>-',
];

// Pieces the fast path takes, so that it is exercised on many front-matters, not only on few.
const WORDS = ['a', 'support', 'Tier-1', 'agent', '42', 'Über', 'b2', '6f1c2e4d-0a1b'];
const EVERYDAY = [...WORDS, ' ', '-', ',', '.', '(', ')', '/', 'é', '—'];

function value(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const pool = next() < 0.5 ? EVERYDAY : ATOMS;
  let v = pool === EVERYDAY ? pick(WORDS) : '';
  const parts = 1 + Math.floor(next() * 4);
  for (let i = 0; i < parts; i++) v += pick(next() < 0.8 ? pool : ATOMS);
  const quoting = next();
  if (quoting < 0.2) return `"${v}"`;
  if (quoting < 0.3) return `'${v}'`;
  if (quoting < 0.33) return '';
  return v;
}

function frontMatter(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const keys = ['name', 'description', ...(next() < 0.5 ? ['id'] : [])].filter(() => next() < 0.95);
  if (next() < 0.3) keys.reverse();
  const lines = keys.map((key) => `${key}${next() < 0.95 ? ': ' : pick([':', ':  ', ':\t', ' : '])}${value(next)}`);
  if (next() < 0.25) {
    const odd = pick(['', '  ', '# a comment', '  name: x', 'nam: x', 'Name: x', '__proto__: x', 'name: again', 'description: again', '- a']);
    lines.splice(Math.floor(next() * (lines.length + 1)), 0, odd);
  }
  const eol = next() < 0.15 ? '\r\n' : '\n';
  return `---${eol}${lines.map((l) => l + eol).join('')}---${eol}content${eol}`;
}

describe('the front-matter fast path', () => {
  test('agrees exactly with the YAML parser and the schema, or declines: 6,000 generated front-matters', () => {
    const next = random(20_240_611);
    let taken = 0;
    for (let i = 0; i < 6000; i++) {
      const text = frontMatter(next);
      const r = both(text);
      expect(r.withFastPath, JSON.stringify(text)).toEqual(r.reference);
      if (r.fast) {
        taken++;
        expect(r.reference, JSON.stringify(text)).toMatchObject({ ok: true });
      }
    }
    // The generator is tricky on purpose, but the fast path must still take a good share of it.
    expect(taken).toBeGreaterThan(600);
  });

  test.each([
    ['plain values', '---\nname: support-agent\ndescription: Tier-1 support, for orders (and billing)\n---\nx\n'],
    ['pull with an id', '---\nname: support-agent\ndescription: Handles refunds\nid: 6f1c2e4d-0a1b-4c2d-8e3f-9a0b1c2d3e4f\n---\nx\n'],
    ['an id that is digits and dashes', '---\nname: a\ndescription: d\nid: 12345678-1234-1234-1234-123456789012\n---\n'],
    ['JSON-style double quotes', '---\nname: "bench-role-00001"\ndescription: "Benchmark role 00001: tier-1 support"\n---\nx\n'],
    ['an empty description', '---\nname: a\ndescription: ""\n---\n'],
    ['single quotes, keys in any order, a blank line, CRLF', "---\r\nid: 'x1'\r\n\r\ndescription: 'a # b'\r\nname: Über—agent ✓\r\n---\r\nx\r\n"],
    ['non-ASCII letters and punctuation', '---\nname: naïve-agent\ndescription: Résumé — “quoted” text, 100 € (tax)\n---\n'],
    ['quotes and symbols inside a plain value', `---\nname: translator\ndescription: Translates into the customer's language, "as is" & [fast] {50% off} @home <b>|~\\\`x\`!*$^\n---\n`],
  ])('takes the everyday shapes: %s', (_, text) => {
    const r = both(text);
    expect(r.fast).toBe(true);
    expect(r.withFastPath).toEqual(r.reference);
    expect(r.reference).toMatchObject({ ok: true });
  });

  test.each([
    ['a boolean', '---\nname: True\ndescription: d\n---\n'],
    ['a null', '---\nname: a\ndescription: null\n---\n'],
    ['nothing after the key', '---\nname: a\ndescription:\n---\n'],
    ['a number', '---\nname: 1e5\ndescription: d\n---\n'],
    ['a hex number', '---\nname: 0x1F\ndescription: d\n---\n'],
    ['a negative exponent', '---\nname: a\ndescription: d\nid: 1e-5\n---\n'],
    ['a comment', '---\nname: a # b\ndescription: d\n---\n'],
    ['a mapping in the value', '---\nname: a: b\ndescription: d\n---\n'],
    ['an escape', '---\nname: "a\\tb"\ndescription: d\n---\n'],
    ['a continued line', '---\nname: a\n  b\ndescription: d\n---\n'],
    ['a trailing space', '---\nname: a \ndescription: d\n---\n'],
    ['an unknown key', '---\nname: a\ndescription: d\nowner: me\n---\n'],
    ['a repeated key', '---\nname: a\nname: b\ndescription: d\n---\n'],
    ['a missing description', '---\nname: a\n---\n'],
    ['an empty name', '---\nname: ""\ndescription: d\n---\n'],
    ['an alias', '---\nname: *a\ndescription: d\n---\n'],
    ['a tag', '---\nname: !!str a\ndescription: d\n---\n'],
  ])('declines, and the parser decides: %s', (_, text) => {
    const r = both(text);
    expect(r.fast).toBe(false);
    expect(r.withFastPath).toEqual(r.reference);
  });

  test('couldBeNumber is true for every number form of the core schema, false for UUID-like ids', () => {
    for (const n of ['0', '42', '+12', '-3', '1.5', '1.', '1e5', '1E-5', '-1.5e+3', '0x1F', '0o17', '.5']) expect(couldBeNumber(n), n).toBe(true);
    for (const s of ['6f1c2e4d-0a1b-4c2d-8e3f-9a0b1c2d3e4f', '12345678-1234', '12e4-5', '1a-2', '2001-12-14', '1 2', 'a1', '1_000']) {
      expect(couldBeNumber(s), s).toBe(false);
    }
  });

  test('the fast path is used only with a schema that asks nothing more than it proves', () => {
    expect(schemaAcceptsSimple(roleSchema)).toBe(true);
    const props = (roleSchema as { properties: Record<string, object> }).properties;
    const variants: object[] = [
      fullPathSchema,
      { ...roleSchema, additionalProperties: true },
      { ...roleSchema, required: ['name'] },
      { ...roleSchema, properties: { ...props, name: { type: 'string', minLength: 1, maxLength: 10 } } },
      { ...roleSchema, properties: { ...props, description: { type: 'string', minLength: 1 } } },
      { ...roleSchema, properties: { ...props, id: { type: 'string', pattern: '^[a-f0-9-]+$' } } },
      { ...roleSchema, properties: { ...props, owner: { type: 'string' } } },
    ];
    for (const schema of variants) expect(schemaAcceptsSimple(schema)).toBe(false);
    // With such a schema the validator runs, and says what the fast path could not.
    const r = parseRoleFile('---\nname: a\ndescription: ""\n---\n', 'roles/a.md', variants[4]!);
    expect(r).toMatchObject({ ok: false, issues: [{ line: 3, col: 14, message: 'description: must not be empty' }] });
  });
});

describe('the positions the fast path shares', () => {
  test('files laid out alike share one frozen `at`, equal to what each would have had alone, and other layouts get their own', () => {
    const a = readSimpleFrontMatter('name: a\ndescription: "first"\n')!;
    const b = readSimpleFrontMatter('name: b\ndescription: "second"\n')!;
    const plain = readSimpleFrontMatter('name: c\ndescription: third\n')!;
    const later = readSimpleFrontMatter('\n\nname: d\nid: x1\ndescription: "fourth"\n')!;
    expect(a.at).toBe(b.at);
    expect(a.at).toEqual({ name: { line: 2, col: 1 }, description: { line: 3, col: 14 }, descriptionText: { line: 3, col: 15 } });
    expect(plain.at).toEqual({ name: { line: 2, col: 1 }, description: { line: 3, col: 14 }, descriptionText: { line: 3, col: 14 } });
    expect(later.at).toEqual({ name: { line: 4, col: 1 }, id: { line: 5, col: 1 }, description: { line: 6, col: 14 }, descriptionText: { line: 6, col: 15 } });
    // Shared, so no one may change them for everyone.
    expect(Object.isFrozen(a.at) && Object.isFrozen(a.at.name) && Object.isFrozen(a.at.descriptionText)).toBe(true);
    const far = `${'\n'.repeat(70)}name: e\ndescription: "fifth"\n`;
    expect(readSimpleFrontMatter(far)!.at).toEqual({ name: { line: 72, col: 1 }, description: { line: 73, col: 14 }, descriptionText: { line: 73, col: 15 } });
    expect(readSimpleFrontMatter(far)!.at).not.toBe(readSimpleFrontMatter(far)!.at);
  });
});

describe('the ASCII check of a plain value', () => {
  test('answers exactly as the Unicode check, for every ASCII character alone, after a letter, and in any mix', () => {
    for (let c = 0; c < 0x80; c++) {
      const ch = String.fromCharCode(c);
      expect([c, plainIsSimple(ch), plainIsSimple(`a${ch}`), plainIsSimple(`${ch}b`)]).toEqual([c, plainPattern().test(ch), plainPattern().test(`a${ch}`), plainPattern().test(`${ch}b`)]);
    }
    const asciiChar = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
    const everyday = fc.constantFrom('a', 'Z', '0', ' ', '-', ':', '#', '.', '(', 'é', '文', '\u0301', '—');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: asciiChar, maxLength: 30 }), fc.string({ unit: everyday, maxLength: 12 }), (any, ascii, mixed) => {
        for (const s of [any, ascii, mixed, `Tier${ascii}`]) expect([s, plainIsSimple(s)]).toEqual([s, plainPattern().test(s)]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the ASCII check of a quoted value', () => {
  test('accepts exactly the ASCII characters the Unicode check accepts, each alone and in any mix', () => {
    for (let c = 0; c < 0x80; c++) {
      const ch = String.fromCharCode(c);
      expect([c, quotedInsideIsSimple(ch)]).toEqual([c, quotedInsidePattern().test(ch)]);
    }
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (any, ascii) => {
      expect(quotedInsideIsSimple(any)).toBe(quotedInsidePattern().test(any));
      expect(quotedInsideIsSimple(ascii)).toBe(quotedInsidePattern().test(ascii));
    }), { numRuns: 2000 });
    // The quotes and the backslash are what a quoted value may not hold; a tab or DEL neither.
    for (const ch of ['"', "'", '\\', '\t', '\x7f']) expect(quotedInsideIsSimple(`Tier-1 ${ch} agent`)).toBe(false);
    expect(quotedInsideIsSimple('Benchmark role 00001: tier-1 support for one product line')).toBe(true);
  });
});
