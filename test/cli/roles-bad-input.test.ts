import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, project, roleText, run } from './roles-kit.js';

const bomb = [
  '---',
  'name: bomb',
  'description: boom',
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  '---',
  'content',
].join('\n');

/** One bad role file per case, with what the message must say. */
const cases: { name: string; content: string | Uint8Array; where: RegExp; says: RegExp }[] = [
  { name: 'no front-matter', content: 'name: x\ndescription: y\n', where: /roles\/bad\.md:1:1: /, says: /no front-matter/ },
  { name: 'unclosed front-matter', content: '---\nname: x\ndescription: y\n', where: /roles\/bad\.md:1:1: /, says: /not closed/ },
  { name: 'invalid YAML', content: '---\nname: [x\ndescription: y\n---\nbody\n', where: /roles\/bad\.md:\d+:\d+: /, says: /./ },
  { name: 'missing description', content: '---\nname: x\n---\nbody\n', where: /roles\/bad\.md:2:1: /, says: /missing required key "description"/ },
  { name: 'non-string description', content: '---\nname: x\ndescription: 5\n---\n', where: /roles\/bad\.md:3:\d+: /, says: /description: must be string/ },
  { name: 'empty name', content: '---\nname: ""\ndescription: y\n---\n', where: /roles\/bad\.md:2:\d+: /, says: /name: must not be empty/ },
  { name: 'unknown key', content: '---\nname: x\ndescription: y\ndescripton: z\n---\n', where: /roles\/bad\.md:4:1: /, says: /unknown key "descripton"/ },
  { name: 'alias bomb', content: bomb, where: /roles\/bad\.md:\d+:\d+: /, says: /./ },
  { name: '__proto__ key', content: '---\nname: x\ndescription: y\n__proto__: { polluted: true }\n---\n', where: /roles\/bad\.md:4:\d+: /, says: /__proto__/ },
  { name: 'binary (NUL)', content: Buffer.from('---\nname: x\ndescription: y\n---\n\0\0\0'), where: /roles\/bad\.md:5:1: /, says: /binary file/ },
  { name: 'binary (not UTF-8)', content: Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x00, 0x81]), where: /roles\/bad\.md:1:1: /, says: /binary file/ },
  { name: 'too large', content: `---\nname: x\ndescription: y\n---\n${'x'.repeat(1024 * 1024 + 10)}`, where: /roles\/bad\.md:1:1: /, says: /too large/ },
];

describe('bad role files stop every command before anything is sent', () => {
  for (const c of cases) {
    it(`${c.name}: exit 1 naming the file, no request at all`, async () => {
      const em = await emulator();
      const p = await project({ 'roles/good.md': roleText('good', 'd', 'c'), 'roles/bad.md': c.content });
      for (const args of [['plan'], ['apply', '--auto-approve'], ['validate']]) {
        const r = args[0] === 'validate' ? await runCli(args, { cwd: p.dir }) : await run(p, em, args);
        expect(r.code, `${args[0]}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(c.where);
        expect(r.stderr).toMatch(c.says);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        expect(r.stdout).toBe('');
      }
      expect(em.requests()).toEqual([]);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  }

  it('names both files of a duplicate name, and of a duplicate id', async () => {
    const em = await emulator();
    const p = await project({
      'roles/a.md': roleText('same', 'd', 'c'),
      'roles/sub/b.md': roleText('same', 'd', 'c'),
      'roles/c.md': roleText('c', 'd', 'c', 'id-1'),
      'roles/d.md': roleText('d', 'd', 'c', 'id-1'),
    });
    const r = await run(p, em, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^roles\/a\.md:2:1: name "same" is also used by roles\/sub\/b\.md:2:1/m);
    expect(r.stderr).toMatch(/^roles\/c\.md:4:1: id "id-1" is also used by roles\/d\.md:4:1/m);
    expect(em.requests()).toEqual([]);
  });

  it('reports the problems of every file in one run', async () => {
    const em = await emulator();
    const files: Record<string, string | Uint8Array> = {};
    cases.forEach((c, i) => (files[`roles/bad-${String(i).padStart(2, '0')}.md`] = c.content));
    const p = await project(files);
    const r = await run(p, em, ['plan']);
    expect(r.code).toBe(1);
    for (let i = 0; i < cases.length; i++) expect(r.stderr).toContain(`roles/bad-${String(i).padStart(2, '0')}.md:`);
    expect(em.requests()).toEqual([]);
  });

  it('a missing roles folder is one clear error', async () => {
    const em = await emulator();
    const p = await project({});
    const r = await run(p, em, ['plan']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: roles folder roles not found: create it, or point --roles (or roles.dir in the config) at your role files\n');
    expect(em.requests()).toEqual([]);
  });

  it('a broken saved plan is refused in one line with its first problem located, before the tenant is asked', async () => {
    const em = await emulator();
    const p = await project({
      'plan.json': '{"format_version": 1, "tenant": {"name": "test"}, "changes": []}\n',
      'notjson.json': 'a: [',
      'roles/x.md': roleText('x', 'd', 'c'),
      // A role file by another name: `apply roles/x.md` is a partial apply of that Role.
      'x-role.txt': roleText('x', 'd', 'c'),
      'empty.json': '{}',
      'list.json': '[1, 2]',
      'other.yaml': 'format_version: 1\nchanges: []\n',
      'future.json': '{"format_version": 2, "changes": []}',
    });
    const r = await run(p, em, ['apply', 'plan.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: plan\.json is not a saved plan \(1:1: missing required key "options", and \d+ more problems\): make one with roleflow plan --out FILE\n$/);
    const says = {
      'notjson.json': 'not JSON',
      'x-role.txt': 'not JSON',
      'other.yaml': 'not JSON',
      'empty.json': 'no "format_version" and "changes"',
      'list.json': 'JSON array, not an object',
      'future.json': 'format_version 2; this roleflow reads 1',
    };
    for (const [file, why] of Object.entries(says)) {
      const broken = await run(p, em, ['apply', file]);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toBe('');
      expect(broken.stderr).toBe(`error: ${file} is not a saved plan (${why}): make one with roleflow plan --out FILE\n`);
    }
    expect(em.requests()).toEqual([]);
  });
});
