import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readSimpleYaml } from '../../../src/core/flows/yaml/simple-yaml.js';
import { parseYaml } from '../../../src/core/text/yaml-source.js';
import { random } from '../roles/builders.js';

/**
 * The fast reader of flow test files against the YAML parser: wherever it takes a text, the value
 * and the position of every value and key must be the parser's; it may decline anything.
 */
function agrees(text: string): boolean {
  const fast = readSimpleYaml(text);
  if (!fast) return false;
  const reference = parseYaml(text, { file: 'flows/a.yaml' });
  expect(reference, JSON.stringify(text)).toMatchObject({ ok: true });
  if (!reference.ok) return false;
  expect(fast.value, JSON.stringify(text)).toStrictEqual(reference.value.value);
  for (const { pointer, keys } of pointersOf(reference.value.value)) {
    expect(fast.locate(pointer), `${JSON.stringify(text)} at ${pointer}`).toEqual(reference.value.locate(pointer));
    for (const key of [...keys, 'missing', '']) {
      expect(fast.locate(pointer, { key }), `${JSON.stringify(text)} at ${pointer} key ${key}`).toEqual(reference.value.locate(pointer, { key }));
    }
  }
  return true;
}

/** Every JSON pointer into `value`, those of paths that do not exist too, with the keys of maps. */
function pointersOf(value: unknown, pointer = ''): { pointer: string; keys: string[] }[] {
  const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const out = [{ pointer, keys: [] as string[] }, { pointer: `${pointer}/nothing`, keys: [] }, { pointer: `${pointer}/9`, keys: [] }];
  if (Array.isArray(value)) {
    out.push({ pointer: `${pointer}/`, keys: [] }, { pointer: `${pointer}/-1`, keys: [] });
    value.forEach((v, i) => out.push(...pointersOf(v, `${pointer}/${i}`)));
  } else if (typeof value === 'object' && value !== null) {
    out[0]!.keys = Object.keys(value);
    for (const [k, v] of Object.entries(value)) out.push(...pointersOf(v, `${pointer}/${escape(k)}`));
  }
  return out;
}

// Pieces of scalars: everyday words, every ASCII punctuation mark, YAML's special words and number
// forms, escapes, whitespace and characters YAML treats specially outside ASCII.
const ATOMS = [
  'a', 'Z', 'case', 'results[0].n', 'completed', '10s', '< 2s', 'Über', '0', '7', '42', '007', 'e', 'x', 'o',
  ...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split(''),
  ' ', '  ', '\t', ': ', ' #', '- ', '? ', '---', '...', '\r', '\n',
  'é', '—', '€', '😀', '\u00a0', '\u200b', '\u2028', '\u0085', '\ufeff', '\u0301',
  'true', 'False', 'TRUE', 'NULL', 'null', '~', 'yes', 'On', 'y', '.inf', '-.Inf', '.NaN',
  '1e5', '1E-5', '+12', '-3', '0x1F', '0o17', '1_000', '1.5', '.5', '12:30', '2001-12-14', '123456789012345678',
  '\\n', '\\t', '\\"', '\\\\', '\\/', '\\x41', '\\u00e9', "''", '&a', '*a', '!!str', '!tag', '%YAML', '|', '>-',
];
const WORDS = ['a', 'case', 'completed', 'n', 'x1', 'Über', '10s', '2', 'true', 'results'];
const KEYS = ['flow', 'tests', 'name', 'inputs', 'expect', 'n', 'path', 'equals', 'a.b', 'x-y', '_k', 'y', 'null', '1', 'true', '__proto__', 'constructor', '<<', 'a b', 'k:', 'a~b/c'];

function generator(next: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;

  const scalar = (): string => {
    let v = chance(0.6) ? pick(WORDS) : '';
    const parts = Math.floor(next() * 3);
    for (let i = 0; i < parts; i++) v += chance(0.7) ? pick(WORDS) + (chance(0.5) ? ' ' : '') : pick(ATOMS);
    if (v === '') v = pick(ATOMS);
    const quoting = next();
    if (quoting < 0.25) return `"${v}"`;
    if (quoting < 0.35) return `'${v}'`;
    return v;
  };
  const key = (): string => {
    const k = chance(0.85) ? pick(KEYS.slice(0, 10)) : pick(KEYS);
    return chance(0.1) ? `"${k}"` : chance(0.05) ? `'${k}'` : k;
  };
  const comment = () => (chance(0.1) ? ` # ${pick(ATOMS)}` : chance(0.03) ? pick(['#x', '  #', ' ']) : '');
  const flow = (depth: number): string => {
    const count = Math.floor(next() * 4);
    const items: string[] = [];
    const isMap = chance(0.6);
    for (let i = 0; i < count; i++) {
      const value = depth < 3 && chance(0.2) ? flow(depth + 1) : scalar();
      items.push(isMap ? `${key()}:${chance(0.95) ? ' ' : ''}${value}` : value);
    }
    const sep = chance(0.9) ? ', ' : pick([',', ' , ', ',  ']);
    const pad = chance(0.8) ? ' ' : '';
    const inner = items.length === 0 ? '' : pad + items.join(sep) + (chance(0.03) ? ',' : '') + pad;
    return isMap ? `{${inner}}` : `[${inner}]`;
  };
  const inline = (depth: number) => (chance(0.3) ? flow(depth) : scalar()) + comment();
  const filler = (indent: string): string[] =>
    chance(0.1) ? [pick(['', '  ', `${indent}# note`, '# at column 1', `${indent}  # deeper`, '   '])] : [];

  // A block mapping or sequence at `indent`, as lines.
  const block = (indent: string, depth: number, kind: 'map' | 'seq'): string[] => {
    const lines: string[] = [];
    const count = 1 + Math.floor(next() * 3);
    for (let i = 0; i < count; i++) {
      lines.push(...filler(indent));
      if (kind === 'map') {
        const k = key();
        if (depth < 4 && chance(0.35)) {
          const step = pick(['  ', '  ', '    ', ' ', '']);
          lines.push(`${indent}${k}:${comment()}`, ...block(indent + step, depth + 1, chance(0.5) ? 'map' : 'seq'));
        } else lines.push(`${indent}${k}:${chance(0.97) ? ' ' : ''}${inline(depth)}`);
      } else if (depth < 4 && chance(0.4)) {
        // A mapping in the item: its first key on the dash's line, the others under it.
        const inner = block(`${indent}  `, depth + 1, 'map');
        lines.push(`${indent}-${chance(0.95) ? ' ' : '  '}${inner[0]!.trimStart()}`, ...inner.slice(1));
      } else lines.push(`${indent}- ${inline(depth)}`);
    }
    return lines;
  };

  return (): string => {
    const lines = [...(chance(0.3) ? ['# yaml-language-server: $schema=x', '#'] : []), ...block('', 0, 'map')];
    let text = lines.join('\n') + (chance(0.9) ? '\n' : '');
    // Now and then a stray piece anywhere, so that nearly right texts are tried too.
    if (chance(0.15)) {
      const at = Math.floor(next() * (text.length + 1));
      text = text.slice(0, at) + pick(ATOMS) + text.slice(at);
    }
    return text;
  };
}

describe('the flow test fast reader', () => {
  test('agrees exactly with the YAML parser (values and every position) or declines: generated files', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const make = generator(random(seed));
        for (let i = 0; i < 20; i++) {
          runs++;
          if (agrees(make())) taken++;
        }
      }),
      { numRuns: 400 },
    );
    // The generator is tricky on purpose, but the reader must still take a good share of it.
    expect(taken).toBeGreaterThan(runs / 10);
  });

  test('agrees on arbitrary text, whatever it declines', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ATOMS, 'a', 'k: ', '\n', '  ', '- ', '{', '}', '[', ']', ', ') }), (text) => {
        agrees(text);
      }),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['the bench fixture shape', 'flow: zero\ntransport: [https, ws]\ndefaults:\n  timeout: 10s\n  until: { steps: 2, messages: 2 }\ntests:\n  - name: case 0\n    inputs: { n: "0" }\n    expect:\n      outputs: [{ path: "results[0].n", equals: "0" }]\n      steps: { count: 2, each: { status: completed } }\n'],
    ['comments and quoted keys', '# c\nflow: summarize # the flow\ntests:\n  # first\n  - name: a\n    skip: true\n    expect:\n      latency:\n        steps:\n          "llm*": { p95: "< 1s" }\n          retriever: "< 500ms"\n'],
    ['escapes and single quotes', "flow: echo\ntests:\n  - name: 'it''s'\n    expect:\n      outputs:\n        - { path: results, matches: \"^T-\\\\d+$\" }\n"],
  ])('takes the everyday shapes: %s', (_, text) => {
    expect(agrees(text)).toBe(true);
  });

  test.each([
    ['a block scalar', 'flow: a\nnote: |\n  text\n'],
    ['an anchor and alias', 'flow: &f a\nother: *f\n'],
    ['a multi-line flow collection', 'flow: a\ninputs: { n: 1,\n  m: 2 }\n'],
    ['a duplicate key', 'flow: a\nflow: b\n'],
    ['a prototype key', 'flow: a\n__proto__: x\n'],
    ['a tab', 'flow:\ta\n'],
    ['CRLF line ends', 'flow: a\r\n'],
    ['a null', 'flow: ~\n'],
    ['a float', 'flow: 1.5\n'],
    ['an empty value', 'flow:\nname: x\n'],
    ['a second document', 'flow: a\n---\nflow: b\n'],
  ])('declines, and the parser decides: %s', (_, text) => {
    expect(readSimpleYaml(text)).toBeUndefined();
  });
});
