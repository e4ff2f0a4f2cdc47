import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, project, roleText, run, seed, TOKEN } from './roles-kit.js';

/** Every file under `dir`, relative, posix-style. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

const NASTY: { name: string; description: string; content: string }[] = [
  { name: 'empty', description: '', content: '' },
  { name: 'leading-blank-lines', description: ' leading space', content: '\n\n  Hello' },
  { name: 'trailing-newlines', description: 'trailing space ', content: 'Hello\n\n\n' },
  { name: 'dashes', description: '---', content: '---\nname: fake\n---\nbody\n---' },
  { name: 'crlf', description: 'a\r\nb', content: 'line one\r\nline two\r\n' },
  { name: 'ends-with-cr', description: 'x', content: 'text\r' },
  { name: 'only-newline', description: 'x', content: '\n' },
  { name: 'tabs', description: '\tindented', content: '\tcode\t\n\t\tmore' },
  { name: 'unicode', description: 'héllo 👋 \u202e', content: 'ünïcödé 🎉\u2028line sep\u00a0nbsp' },
  { name: 'yaml-ish', description: 'yes', content: '# heading\n- item: value\n  key: "quoted"' },
  { name: 'null', description: 'null', content: 'null' },
  { name: '123', description: '0x1F', content: '{ "json": true }' },
  { name: 'colon: and #hash', description: '"quoted" \'single\' & *star !tag %percent @at `tick`', content: '| pipe\n> gt' },
];

describe('pull', () => {
  it('writes every Role so that plan right after shows no change, for any content', async () => {
    const em = await emulator();
    for (const r of NASTY) await seed(em, r.name, r.description, r.content);
    const p = await project({});
    const pulled = await run(p, em, ['pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain(`Pulled ${NASTY.length} Roles from tenant test into roles/: ${NASTY.length} written, 0 unchanged, 0 skipped.`);
    const plan = await run(p, em, ['plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(await p.read('roles/empty.md')).toBe(`---\nname: empty\ndescription: ""\nid: ${em.roles()[0]!.id}\n---\n\n`);
    // A second pull finds every file matching.
    const again = await run(p, em, ['pull']);
    expect(again.stdout).toContain(`0 written, ${NASTY.length} unchanged, 0 skipped.`);
  });

  it('never writes outside its folder, whatever the names hold; collisions get distinct names', async () => {
    const names = ['../../etc/passwd', 'a/b', 'a-b', 'A-B', 'CON', 'nul.txt', 'README', '.', '..', '   ', '/', '\\', '.hidden', 'Ω/..'];
    const em = await emulator();
    for (const name of names) await seed(em, name, 'd', `content of ${name}`);
    const p = await project({});
    const r = await run(p, em, ['pull']);
    expect(r.code, r.stderr).toBe(0);
    const files = await tree(p.dir);
    expect(files).toHaveLength(names.length);
    for (const f of files) expect(f).toMatch(/^roles\/[\p{L}\p{N}_-]+\.md$/u);
    expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(names.length);
    expect(files).not.toContain('roles/con.md');
    expect(files).not.toContain('roles/readme.md');
    const plan = await run(p, em, ['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('never overwrites a locally changed file without --force', async () => {
    const em = await emulator();
    const id = await seed(em, 'agent', 'd', 'remote text');
    const p = await project({});
    expect((await run(p, em, ['pull'])).code).toBe(0);
    const edited = roleText('agent', 'd', 'my local edit', id);
    await p.write('roles/agent.md', edited);

    const skipped = await run(p, em, ['pull']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(`warning: skipped roles/agent.md, Role agent (id ${id}): it differs from the Role on the tenant (--force overwrites it)`);
    expect(skipped.stdout).toContain('0 written, 0 unchanged, 1 skipped.');
    expect(await p.read('roles/agent.md')).toBe(edited);

    const forced = await run(p, em, ['pull', '--force']);
    expect(forced.stdout).toContain('~ overwrote roles/agent.md');
    expect(await p.read('roles/agent.md')).toContain('remote text');
  });

  it('keeps writing a Role to the file that holds its id, and leaves matching files alone', async () => {
    const em = await emulator();
    const id = await seed(em, 'renamed-remotely', 'd', 'c');
    await seed(em, 'same', 'd', 'c');
    const p = await project({
      'roles/team/custom-name.md': roleText('old-name', 'd', 'c', id),
      'roles/same-file.md': roleText('same', 'd', 'c'),
      'roles/local-only.md': roleText('local-only', 'd', 'c'),
    });
    const r = await run(p, em, ['pull', '--force', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { summary: object; roles: { file: string; name: string; status: string }[]; local_only: string[] };
    expect(doc.summary).toEqual({ written: 1, unchanged: 1, skipped: 0 });
    expect(doc.roles).toEqual([
      expect.objectContaining({ file: 'roles/team/custom-name.md', name: 'renamed-remotely', status: 'overwritten' }),
      expect.objectContaining({ file: 'roles/same-file.md', name: 'same', status: 'unchanged' }),
    ]);
    expect(doc.local_only).toEqual(['roles/local-only.md']);
    expect(await p.read('roles/team/custom-name.md')).toContain('name: renamed-remotely');
    expect(await tree(p.dir)).toEqual(['roles/local-only.md', 'roles/same-file.md', 'roles/team/custom-name.md']);
  });

  it('skips ignored Roles, and with a warning Roles no role file can hold', async () => {
    const em = await emulator({}, [
      { id: 'e1', name: '', description: 'd', content: 'c' },
      { id: 'n1', name: 'nul\u0000name', description: 'd', content: 'c' },
      { id: 'n2', name: 'nul-content', description: 'd', content: 'a\u0000b' },
      { id: 't1', name: 'tmp-scratch', description: 'd', content: 'c' },
      { id: 'k1', name: 'kept', description: 'd', content: 'c' },
    ]);
    const p = await project({ 'roleflow.config.yaml': 'roles: { ignore: ["tmp-*"] }\n' });
    const r = await run(p, em, ['pull']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: skipped Role "" (id e1): a role file cannot hold it: name: must not be empty');
    expect(r.stderr).toContain('warning: skipped Role nul-content (id n2): a role file cannot hold it: binary file');
    // A NUL in the name is written escaped in the front-matter, so that one round-trips.
    expect(await tree(p.dir)).toEqual(['roleflow.config.yaml', 'roles/kept.md', 'roles/nul-name.md']);
    expect(await p.read('roles/nul-name.md')).toContain('name: "nul\\0name"');
  });

  it('writes no role file holding the token or a key: such a Role is skipped with a warning that never shows it', async () => {
    const em = await emulator({}, [
      { id: 't1', name: 'pasted', description: 'd', content: `call with ${TOKEN}` },
      { id: 'g1', name: 'github', description: 'ghp_0123456789abcdefghijABCDEFGHIJ012345', content: 'c' },
      { id: 'k1', name: 'kept', description: 'd', content: 'c' },
    ]);
    const p = await project({});
    const r = await run(p, em, ['pull']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: skipped Role pasted (id t1): its content on the tenant holds the value of ROLEFLOW_TOKEN: a role file must not hold it (remove it on the tenant, then pull)');
    expect(r.stderr).toContain('warning: skipped Role github (id g1): its description on the tenant holds a GitHub token');
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
    expect(await tree(p.dir)).toEqual(['roles/kept.md']);
  });

  it('adopts a tenant holding two Roles with one name: a file each, pinned by id, then plan shows no change', async () => {
    const em = await emulator();
    const first = await seed(em, 'foo', 'd', 'one');
    const second = await seed(em, 'foo', 'd', 'two');
    const p = await project({});
    const pulled = await run(p, em, ['pull', '--roles', 'p4']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('warning: the tenant holds 2 Roles named foo (pinned by id in the files)');
    const files = await tree(p.dir);
    expect(files).toHaveLength(2);
    const texts = await Promise.all(files.map((f) => p.read(f)));
    expect(texts.map((t) => /^id: (.*)$/m.exec(t)?.[1]).sort()).toEqual([first, second].sort());

    const plan = await run(p, em, ['plan', '--roles', 'p4', '--prune', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes. The tenant matches p4/.');
    expect(plan.code).toBe(0);
    const again = await run(p, em, ['pull', '--roles', 'p4']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 written, 2 unchanged, 0 skipped.');
  });

  it('with a file holding, without id, a name two Roles share: writes no second file of that name, and the folder still validates', async () => {
    const em = await emulator();
    await seed(em, 'foo', 'd', 'one');
    await seed(em, 'foo', 'd', 'two');
    await seed(em, 'bar', 'd', 'c');
    const p = await project({ 'roles/mine.md': roleText('foo', 'd', 'one') });
    const r = await run(p, em, ['pull']);
    expect(r.code, r.stderr).toBe(0);
    const skipped = r.stderr.split('\n').filter((l) => l.startsWith('warning: skipped Role foo'));
    expect(skipped).toHaveLength(2);
    for (const line of skipped) expect(line).toMatch(/: roles\/mine\.md holds its name without an id: add "id:" there to pin the Role it manages$/);
    expect(r.stderr).toContain('warning: roles/mine.md has no id and 2 Roles are named foo: add "id:" to pin the one it manages');
    expect(r.stdout).toContain('1 written, 0 unchanged, 2 skipped.');
    expect(await tree(p.dir)).toEqual(['roles/bar.md', 'roles/mine.md']);
    const validate = await runCli(['validate', '--roles', 'roles'], { cwd: p.dir });
    expect(validate).toMatchObject({ code: 0, stdout: '2 role files and 0 flow test files are valid.\n' });
  });

  it('writes nothing when what it would write leaves two files holding one name (a rename onto an unpinned file)', async () => {
    const em = await emulator();
    const id = await seed(em, 'new-name', 'd', 'c');
    const p = await project({ 'roles/a.md': roleText('old-name', 'd', 'c', id), 'roles/b.md': roleText('new-name', 'd', 'mine') });
    const r = await run(p, em, ['pull', '--force']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: pull wrote nothing: the folder would not pass validate (roles/a.md:2:1: name "new-name" is also used by roles/b.md:2:1: ' +
        'each Role needs exactly one file (for Roles that share a name on the tenant, pin each file to its Role with "id:"))\n',
    );
    expect(await p.read('roles/a.md')).toBe(roleText('old-name', 'd', 'c', id));
    expect((await runCli(['validate', '--roles', 'roles'], { cwd: p.dir })).code).toBe(0);
  });

  it('refuses to write anything while a local role file is broken', async () => {
    const em = await emulator();
    await seed(em, 'a');
    const p = await project({ 'roles/broken.md': 'no front-matter\n' });
    const r = await run(p, em, ['pull']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^roles\/broken\.md:1:1: no front-matter/);
    expect(await tree(p.dir)).toEqual(['roles/broken.md']);
  });
});
