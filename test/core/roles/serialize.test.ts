import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { checkRoleSet, fileNameKey, parseRoleFile, roleFileName, serializeRoleFile } from '../../../src/core/roles/index.js';
import { file, roleSchema } from './builders.js';

const NASTY_CONTENTS = [
  '',
  '\n',
  '\n\n',
  '\n\nleading blank lines',
  'trailing newlines\n\n\n',
  '---',
  'a\n---\nb',
  '---\nname: evil\ndescription: x\n---',
  'line one\r\nline two\r\n',
  'ends in CR\r',
  '\r',
  '\ttabbed\t\n\t',
  '  spaces around  ',
  'héllo ✓ 😀 \u2028 \u0085 \u00a0',
  'name: looks like yaml\ndescription: yes\n',
  '```\ncode\n```',
];

const NASTY_NAMES = [
  'plain',
  'with "quotes" and \'single\'',
  'colon: here',
  '# hash',
  'a #comment',
  '- dash',
  '---',
  'yes',
  'null',
  '123',
  ' leading and trailing ',
  'multi\nline',
  '{flow}',
  '*alias',
  'emoji 😀',
];

describe('serializeRoleFile', () => {
  test('writes front-matter, ---, the content and one newline', () => {
    expect(serializeRoleFile({ name: 'support', description: 'Tier-1', id: '6f1c', content: 'You are support.' })).toBe(
      '---\nname: support\ndescription: Tier-1\nid: 6f1c\n---\nYou are support.\n',
    );
  });

  test.each(NASTY_CONTENTS)('content %j round-trips exactly', (content) => {
    const role = { name: 'r', description: 'd', content };
    const back = parseRoleFile(serializeRoleFile(role), 'roles/r.md', roleSchema);
    expect(back.ok && back.value.content).toBe(content);
  });

  test.each(NASTY_NAMES)('name and description %j round-trip exactly', (text) => {
    const role = { name: text, description: text, id: text, content: 'c' };
    const back = parseRoleFile(serializeRoleFile(role), 'roles/r.md', roleSchema);
    if (!back.ok) throw new Error(back.issues.map(formatIssue).join('\n'));
    expect({ name: back.value.name, description: back.value.description, id: back.value.id }).toEqual({
      name: text,
      description: text,
      id: text,
    });
  });

  test('an empty description round-trips and no id is written when there is none', () => {
    const text = serializeRoleFile({ name: 'r', description: '', content: 'c' });
    expect(text).not.toContain('id:');
    const back = parseRoleFile(text, 'roles/r.md', roleSchema);
    expect(back.ok && back.value).toMatchObject({ description: '', content: 'c' });
  });
});

describe('roleFileName', () => {
  const none = new Set<string>();

  test.each([
    ['support-agent', 'support-agent.md'],
    ['Support Agent', 'support-agent.md'],
    ['../../etc/passwd', 'etc-passwd.md'],
    ['a/b\\c', 'a-b-c.md'],
    ['..', 'role.md'],
    ['', 'role.md'],
    ['.hidden', 'hidden.md'],
    ['nul\0byte\x1b[31m', 'nul-byte-31m.md'],
    ['CON', 'con-role.md'],
    ['com1', 'com1-role.md'],
    ['Lpt9', 'lpt9-role.md'],
    ['README', 'readme-role.md'],
    ['café ✓ 客服', 'café-客服.md'],
    ['C:\\Windows', 'c-windows.md'],
  ])('%j → %j', (name, expected) => {
    expect(roleFileName(name, none)).toBe(expected);
  });

  test('long names are cut to a bounded length', () => {
    const name = roleFileName('x'.repeat(10_000), none);
    expect(name).toBe(`${'x'.repeat(64)}.md`);
    expect(Array.from(roleFileName('😀'.repeat(500), none)).length).toBeLessThanOrEqual(67);
  });

  test('collisions get -2, -3…, compared case-insensitively', () => {
    const taken = new Set<string>([fileNameKey('Support.md')]);
    const names: string[] = [];
    for (const n of ['support', 'SUPPORT', 'Support!']) {
      const chosen = roleFileName(n, taken);
      taken.add(chosen);
      names.push(chosen);
    }
    expect(names).toEqual(['support-2.md', 'support-3.md', 'support-4.md']);
  });

  test('never yields a path or a dangerous name, for any input', () => {
    const inputs = ['/', '\\', '..', '.', ' ', '\u0000', '\u202e', 'a..b', '-', '_', 'x/../y', '\r\n', '<>:"|?*'];
    for (const input of inputs) {
      const name = roleFileName(input, none);
      expect(name).toMatch(/^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}_-]*\.md$/u);
      expect(name).not.toContain('..');
    }
  });
});

describe('checkRoleSet', () => {
  test('two files with the same name are one issue naming both', () => {
    const issues = checkRoleSet([
      file('a', { file: 'roles/a.md' }),
      file('b'),
      file('a', { file: 'roles/sub/a-copy.md', at: { name: { line: 3, col: 1 } } }),
    ]);
    expect(issues.map(formatIssue)).toEqual([
      'roles/a.md:2:1: name "a" is also used by roles/sub/a-copy.md:3:1: each Role needs exactly one file (for Roles that share a name on the tenant, pin each file to its Role with "id:")',
    ]);
  });

  test('two files with the same id are one issue naming both', () => {
    const issues = checkRoleSet([file('a', { id: 'r1' }), file('b', { id: 'r1' }), file('c', { id: 'r2' })]);
    expect(issues.map(formatIssue)).toEqual([
      'roles/a.md:4:1: id "r1" is also used by roles/b.md:4:1: each Role needs exactly one file',
    ]);
  });

  test('distinct names and ids pass', () => {
    expect(checkRoleSet([file('a', { id: '1' }), file('b', { id: '2' }), file('c')])).toEqual([]);
  });

  test('files may share a name when each pins a distinct id: a tenant holding that name twice is adopted', () => {
    const pinned = [file('foo', { id: 'r1' }), file('foo', { id: 'r2', file: 'roles/foo-2.md' }), file('foo', { id: 'r3', file: 'roles/foo-3.md' })];
    expect(checkRoleSet(pinned)).toEqual([]);
  });

  test('a shared name stays an issue when any file carrying it has no id, or two pin the same id', () => {
    const oneUnpinned = checkRoleSet([file('foo', { id: 'r1' }), file('foo', { file: 'roles/foo-2.md' })]);
    expect(oneUnpinned.map(formatIssue)).toEqual([
      'roles/foo.md:2:1: name "foo" is also used by roles/foo-2.md:2:1: each Role needs exactly one file (for Roles that share a name on the tenant, pin each file to its Role with "id:")',
    ]);
    const sameId = checkRoleSet([file('foo', { id: 'r1' }), file('foo', { id: 'r1', file: 'roles/foo-2.md' })]);
    expect(sameId.map((i) => i.message.slice(0, 22))).toEqual(['name "foo" is also use', 'id "r1" is also used b']);
  });
});
