import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { parseRoleFile, serializeRoleFile } from '../../../src/core/roles/index.js';
import { roleSchema } from './builders.js';

/** Plain scalars that YAML 1.1 readers (PyYAML, js-yaml in gray-matter) load as something other than a string. */
const YAML_11_TRAPS = [
  'yes', 'Yes', 'YES', 'no', 'No', 'on', 'On', 'OFF', 'off', 'y', 'Y', 'n', 'N', 'true', 'False',
  '12:30', '190:20:30', '1:2:3.5', '1_000', '1_0.5', '1_0e5', '685_230.15', '0b101', '0b1_0', '0o17', '017',
  '0x1F', '-0x1f', '0x_0A_74_AE', '2024-01-01', '2001-12-14t21:59:43.10-05:00', '2002-12-14 21:59:43.10 -5',
  '=', '<<', '~', 'null', 'Null', 'NULL', '.inf', '-.Inf', '.NaN', '1e3', '+12', '1.5', '-0', '.5', '0.',
];

/** The front-matter of a pulled role file, as another tool would cut it out. */
function frontMatter(text: string): string {
  const end = text.indexOf('\n---\n');
  return text.slice('---\n'.length, end + 1);
}

/** What each reader loads for name and description. */
function readers(text: string): Record<string, unknown> {
  const front = frontMatter(text);
  const pick = (v: unknown): unknown => {
    const o = v as { name?: unknown; description?: unknown } | null;
    return { name: o?.name, description: o?.description };
  };
  const own = parseRoleFile(text, 'roles/r.md', roleSchema);
  return {
    roleflow: own.ok ? { name: own.value.name, description: own.value.description } : own.issues,
    'yaml 1.2': pick(parse(front, { version: '1.2' })),
    'yaml 1.1': pick(parse(front, { version: '1.1' })),
  };
}

function expectSameEverywhere(name: string, description: string): void {
  const text = serializeRoleFile({ name, description, id: 'id-1', content: 'c' });
  const expected = { name, description };
  expect(readers(text)).toEqual({ roleflow: expected, 'yaml 1.2': expected, 'yaml 1.1': expected });
}

describe('pull writes names and descriptions every YAML reader loads as the same string', () => {
  test.each(YAML_11_TRAPS)('%j is quoted', (value) => {
    const text = serializeRoleFile({ name: value, description: value, content: '' });
    expect(frontMatter(text)).toBe(`name: ${JSON.stringify(value)}\ndescription: ${JSON.stringify(value)}\n`);
    expectSameEverywhere(value, value);
  });

  test('a plain word stays plain', () => {
    expect(frontMatter(serializeRoleFile({ name: 'support-agent', description: 'Tier-1 support', content: '' }))).toBe(
      'name: support-agent\ndescription: Tier-1 support\n',
    );
  });

  // Strings as a file can hold them (well-formed UTF-16), biased towards the shapes YAML resolves.
  const yamlish = fc.stringMatching(/^[-+~=<.:_0-9a-fA-FxXoObBtTzZ :nNyY]{0,12}$/);
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !/\p{Cs}/u.test(s)),
    fc.constantFrom(...YAML_11_TRAPS),
    yamlish,
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10 + (d.getSeconds() % 2) * 9)),
  );

  test('for any string, the serialised front-matter parses back to the same string (roleflow, yaml 1.2, yaml 1.1)', () => {
    fc.assert(
      // An empty name is no Role's (the schema refuses it; pull skips such a Role).
      fc.property(value.filter((s) => s !== ''), value, (name, description) => expectSameEverywhere(name, description)),
      { numRuns: 2000 },
    );
  });
});
