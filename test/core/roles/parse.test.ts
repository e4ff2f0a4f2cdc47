import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { decodeRoleFile, MAX_ISSUES_PER_FILE, MAX_ROLE_FILE_BYTES, parseRoleFile, type RoleFile } from '../../../src/core/roles/index.js';
import { roleSchema } from './builders.js';

function parse(text: string, name = 'roles/a.md'): RoleFile {
  const r = parseRoleFile(text, name, roleSchema);
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return r.value;
}

function problems(text: string): string[] {
  const r = parseRoleFile(text, 'roles/a.md', roleSchema);
  if (r.ok) throw new Error('expected problems');
  return r.issues.map(formatIssue);
}

const FM = '---\nname: a\ndescription: d\n---\n';

describe('parseRoleFile', () => {
  test('reads name, description, id and where the keys stand', () => {
    const f = parse('---\nname: support\ndescription: Tier-1 support\n  \nid: 6f1c\n---\nYou are support.\n');
    expect(f).toEqual({
      file: 'roles/a.md',
      name: 'support',
      description: 'Tier-1 support',
      id: '6f1c',
      content: 'You are support.',
      at: { name: { line: 2, col: 1 }, id: { line: 5, col: 1 }, description: { line: 3, col: 14 }, descriptionText: { line: 3, col: 14 } },
      contentLine: 7,
    });
  });

  test.each([
    ['one final LF is dropped', 'body\n', 'body'],
    ['one final CRLF is dropped', 'body\r\n', 'body'],
    ['only one final line break is dropped', 'body\n\n', 'body\n'],
    ['no final line break: kept as is', 'body', 'body'],
    ['empty body', '', ''],
    ['a body of one line break is empty content', '\n', ''],
    ['two line breaks are one of content', '\n\n', '\n'],
    ['leading blank lines kept', '\n\n  indented\n', '\n\n  indented'],
    ['--- lines inside the body kept', 'a\n---\nb\n---\n', 'a\n---\nb\n---'],
    ['CRLF inside kept', 'a\r\nb\r\n\r\n', 'a\r\nb\r\n'],
    ['tabs and trailing spaces kept', '\tx  \n\t\n', '\tx  \n\t'],
    ['unicode kept', 'héllo ✓ 😀\n', 'héllo ✓ 😀'],
    ['a lone final CR is content', 'a\r', 'a\r'],
    ['looks like YAML', 'name: b\ndescription: c\n', 'name: b\ndescription: c'],
  ])('content rule: %s', (_, body, content) => {
    expect(parse(FM + body).content).toBe(content);
  });

  test('closing line with nothing after it (no final newline) gives empty content', () => {
    expect(parse('---\nname: a\ndescription: d\n---').content).toBe('');
  });

  test('a line that merely starts with --- does not close the front-matter', () => {
    expect(problems('---\nname: a\ndescription: d\n----\nbody\n')).toEqual([
      'roles/a.md:1:1: front-matter is not closed: add a "---" line after the last key',
    ]);
  });

  test('CRLF delimiters and front-matter; trailing spaces after ---', () => {
    const f = parse('---\r\nname: a\r\ndescription: "d"\r\n--- \r\n\r\nbody\r\n');
    expect(f).toMatchObject({ name: 'a', description: 'd', content: '\r\nbody' });
  });

  test('a UTF-8 BOM before the opening line is not part of anything', () => {
    expect(parse(`\uFEFF${FM}x\n`)).toMatchObject({ name: 'a', content: 'x' });
  });

  test.each([
    ['no front-matter', 'You are a bot.\n', ['roles/a.md:1:1: no front-matter: a role file starts with a "---" line, then name and description']],
    ['---yaml is not an opening line', '---yaml\nname: a\n---\n', ['roles/a.md:1:1: no front-matter: a role file starts with a "---" line, then name and description']],
    ['unclosed front-matter', '---\nname: a\ndescription: d\n', ['roles/a.md:1:1: front-matter is not closed: add a "---" line after the last key']],
    ['a list', '---\n- a\n---\n', ['roles/a.md:2:1: front-matter must be a mapping with "name" and "description" keys, got a list']],
    ['a string', '---\nhello\n---\n', ['roles/a.md:2:1: front-matter must be a mapping with "name" and "description" keys, got a string']],
    ['empty front-matter', '---\n---\nx\n', ['roles/a.md:2:1: front-matter must be a mapping with "name" and "description" keys, got nothing']],
    ['missing description', '---\nname: a\n---\n', ['roles/a.md:2:1: missing required key "description"']],
    ['missing name', '---\ndescription: d\n---\n', ['roles/a.md:2:1: missing required key "name"']],
    [
      'non-string name and description, all at once',
      '---\nname: 12\ndescription: true\n---\n',
      ['roles/a.md:2:7: name: must be string, got number', 'roles/a.md:3:14: description: must be string, got boolean'],
    ],
    ['null description', '---\nname: a\ndescription:\n---\n', ['roles/a.md:3:13: description: must be string, got null (write description: "" for an empty string)']],
    ['empty name', '---\nname: ""\ndescription: d\n---\n', ['roles/a.md:2:7: name: must not be empty']],
    ['numeric id', '---\nname: a\ndescription: d\nid: 5\n---\n', ['roles/a.md:4:5: id: must be string, got number']],
    [
      'unknown keys, with a suggestion',
      '---\nname: a\ndescription: d\ndescripton: e\nfoo: 1\n---\n',
      ['roles/a.md:4:1: unknown key "descripton" (did you mean "description"?)', 'roles/a.md:5:1: unknown key "foo" (allowed: name, description, id, tenants)'],
    ],
    ['__proto__ key', '---\nname: a\ndescription: d\n__proto__: x\n---\n', ['roles/a.md:4:1: key "__proto__" is not allowed']],
    ['duplicate key', '---\nname: a\nname: b\ndescription: d\n---\n', ['roles/a.md:3:1: Map keys must be unique']],
    ['NUL byte', `${FM}ab\0c\n`, ['roles/a.md:5:3: binary file (contains a NUL byte): a role file is markdown text']],
  ])('refuses %s', (_, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  test('invalid YAML is located in the file, past the opening line', () => {
    const [p] = problems('---\nname: a\ndescription: "open\n---\nx\n');
    expect(p).toMatch(/^roles\/a\.md:[3-4]:\d+: /);
  });

  test('an alias bomb is refused, not expanded', () => {
    const bomb =
      '---\nname: a\ndescription: d\nx: &a [1,1,1,1,1,1,1,1,1]\ny: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n' +
      'z: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nw: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n';
    expect(problems(bomb)).toEqual(['roles/a.md:2:1: YAML refused: Excessive alias count indicates a resource exhaustion attack']);
  });

  test('a file over the size limit is refused before parsing', () => {
    expect(problems(FM + 'x'.repeat(MAX_ROLE_FILE_BYTES))).toEqual([
      `roles/a.md:1:1: file is too large (${MAX_ROLE_FILE_BYTES + FM.length} bytes): a role file may hold at most ${MAX_ROLE_FILE_BYTES} bytes (1 MiB)`,
    ]);
    // Counted in UTF-8 bytes, not characters.
    expect(problems(FM + 'é'.repeat(MAX_ROLE_FILE_BYTES / 2))[0]).toContain('file is too large');
  });

  test('parses the same text twice independently (no shared cache)', () => {
    const a = parse(`${FM}same\n`, 'roles/one.md');
    const b = parse(`${FM}same\n`, 'roles/two.md');
    a.name = 'changed';
    expect(b).toMatchObject({ file: 'roles/two.md', name: 'a' });
  });
});

describe('decodeRoleFile', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

  test('decodes UTF-8 and drops a BOM', () => {
    expect(decodeRoleFile(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('---\nhé')]), 'roles/a.md')).toEqual({ ok: true, value: '---\nhé' });
  });

  test('invalid UTF-8 is a binary file', () => {
    const r = decodeRoleFile(Uint8Array.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]), 'roles/x.png');
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual(['roles/x.png:1:1: binary file (not valid UTF-8): a role file is markdown text']);
  });

  test('a NUL byte is a binary file, located', () => {
    const r = decodeRoleFile(enc('---\nab\0'), 'roles/a.md');
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual(['roles/a.md:2:3: binary file (contains a NUL byte): a role file is markdown text']);
  });

  test('a file over the limit is refused without decoding', () => {
    const r = decodeRoleFile(new Uint8Array(MAX_ROLE_FILE_BYTES + 1), 'roles/big.md');
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      `roles/big.md:1:1: file is too large (${MAX_ROLE_FILE_BYTES + 1} bytes): a role file may hold at most ${MAX_ROLE_FILE_BYTES} bytes (1 MiB)`,
    ]);
  });
});

describe('a file with a flood of problems', () => {
  test('reports the first 20 and counts the rest', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `k${i}: 1`).join('\n');
    const found = problems(`---\nname: a\ndescription: d\n${keys}\n---\n`);
    expect(found).toHaveLength(MAX_ISSUES_PER_FILE + 1);
    expect(found[0]).toMatch(/^roles\/a\.md:4:1: unknown key "k0"/);
    expect(found.at(-1)).toBe('roles/a.md:23:1: 280 more problems in this file not shown');
  });
});
