import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { displayPath, listFilesUnder, readBounded } from '../../src/files/source-files.js';
import { runCli } from '../helpers/cli.js';
import { project, roleText } from './roles-kit.js';
import { GREET, suite } from './test-kit.js';

// `validate` and `test` find, read and decode files through one piece of code: these pin that
// they agree on what is refused, how it is located, and which files a folder holds.

const FLOW_LIMIT = 4 * 1024 * 1024;
const enc = (s: string) => new TextEncoder().encode(s);

const BAD_FLOWS = {
  'flows/nul.yaml': enc('flow: greet\ntests:\n  - name: a\0b\n'),
  'flows/latin1.yaml': Uint8Array.from([...enc('flow: caf'), 0xe9, 0x0a]),
  'flows/huge.yaml': enc(`flow: greet\n# ${'x'.repeat(FLOW_LIMIT)}\n`),
};
const REFUSED = [
  `flows/huge.yaml:1:1: file is too large (${FLOW_LIMIT + 15} bytes): a flow test may hold at most ${FLOW_LIMIT} bytes (4 MiB)`,
  'flows/latin1.yaml:1:1: binary file (not valid UTF-8): a flow test is YAML text',
  'flows/nul.yaml:3:12: binary file (contains a NUL byte): a flow test is YAML text',
];

describe('flow test files, as validate and test read them', () => {
  it('test refuses binary and oversized flow files like validate: the same located lines, exit 1, nothing run', async () => {
    const p = await project({ ...BAD_FLOWS, 'flows/ok.yaml': GREET });
    const test = await runCli(['test'], { cwd: p.dir });
    expect(test).toEqual({ code: 1, stdout: '', stderr: `${REFUSED.join('\n')}\n` });
    // The embedded tenant was never started.
    expect(existsSync(join(p.dir, '.roleflow'))).toBe(false);

    const validate = await runCli(['validate', '--flows', 'flows'], { cwd: p.dir });
    expect(validate).toEqual({ code: 1, stdout: '', stderr: `${REFUSED.join('\n')}\n` });
  });

  it('test refuses a named binary file too, and a named pipe rather than waiting on it', async () => {
    const p = await project({ 'flows/nul.yaml': BAD_FLOWS['flows/nul.yaml'] });
    expect(await runCli(['test', 'flows/nul.yaml'], { cwd: p.dir })).toMatchObject({ code: 1, stderr: `${REFUSED[2]}\n` });
    if (process.platform === 'win32') return;
    execFileSync('mkfifo', [join(p.dir, 'pipe.yaml')]);
    expect(await runCli(['test', 'pipe.yaml'], { cwd: p.dir })).toEqual({ code: 1, stdout: '', stderr: 'pipe.yaml:1:1: cannot read the file (not a regular file)\n' });
  });

  it('both skip dot-files, dot-folders, node_modules and symlinked folders, for flows and roles alike', async () => {
    const s = await suite({
      'flows/greet.yaml': GREET,
      'flows/.draft.yaml': 'not: [a flow test',
      'flows/.cache/x.yaml': 'not: [a flow test',
      'flows/node_modules/pkg/x.yaml': 'not: [a flow test',
      'elsewhere/x.yaml': 'not: [a flow test',
      'elsewhere/x.md': 'no front-matter',
      'roles/a.md': roleText('a', 'd', 'c'),
      'roles/.draft.md': 'no front-matter',
      'roles/node_modules/pkg/readme-ish.md': 'no front-matter',
    });
    await symlink(join(s.dir, 'elsewhere'), join(s.dir, 'flows', 'linked'), 'dir');
    await symlink(join(s.dir, 'elsewhere'), join(s.dir, 'roles', 'linked'), 'dir');

    expect(await s.run(['validate'])).toEqual({ code: 0, stdout: '1 role file and 1 flow test file are valid.\n', stderr: '' });
    const run = await s.test(['--json', '--transport', 'https']);
    expect(run.code).toBe(0);
    const files = new Set((JSON.parse(run.stdout) as RunReport).results.map((r) => r.file));
    expect([...files]).toEqual(['flows/greet.yaml']);
  });

  it('names files outside the working folder relative to it, roles and flows alike', async () => {
    const p = await project({
      'shared/roles/a.md': '---\nname: a\n---\n',
      'shared/flows/bad.yaml': 'flow: f\ntests:\n  - name: t\n    repaet: 2\n',
    });
    await mkdir(join(p.dir, 'work'));
    const r = await runCli(['validate', '--roles', '../shared/roles', '--flows', '../shared/flows'], { cwd: join(p.dir, 'work') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\.\.\/shared\/roles\/a\.md:2:1: missing required key "description"$/m);
    expect(r.stderr).toMatch(/^\.\.\/shared\/flows\/bad\.yaml:4:5: .*repaet/m);
  });

  it('report merge reads its JSON reports the same way: a missing or binary one is one located line, exit 1', async () => {
    const p = await project({ 'shard-1.json': enc('{"version": "\0"}') });
    expect(await runCli(['report', 'merge', 'shard-1.json'], { cwd: p.dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'shard-1.json:1:14: binary file (contains a NUL byte): a JSON report is JSON text\n',
    });
    expect(await runCli(['report', 'merge', 'shard-2.json'], { cwd: p.dir })).toMatchObject({ code: 1, stderr: 'shard-2.json:1:1: cannot read the file (ENOENT)\n' });
    expect(existsSync(join(p.dir, 'roleflow-report.json'))).toBe(false);
  });
});

describe('readBounded', () => {
  const limit = { maxBytes: 64, noun: 'a role file' };

  it('reads a file whole, refuses one over the limit unread, and names a folder and a missing file', async () => {
    const p = await project({ 'roles/a.md': 'x'.repeat(64), 'roles/b.md': 'x'.repeat(65) });
    const read = await readBounded(join(p.dir, 'roles/a.md'), 'roles/a.md', limit);
    expect(read.ok && Buffer.from(read.value).toString()).toBe('x'.repeat(64));
    expect(await readBounded(join(p.dir, 'roles/b.md'), 'roles/b.md', limit)).toEqual({
      ok: false,
      issues: [{ file: 'roles/b.md', line: 1, col: 1, message: 'file is too large (65 bytes): a role file may hold at most 64 bytes' }],
    });
    expect(await readBounded(join(p.dir, 'roles'), 'roles', limit)).toMatchObject({ ok: false, issues: [{ message: 'cannot read the file (it is a folder)' }] });
    expect(await readBounded(join(p.dir, 'roles/c.md'), 'roles/c.md', limit)).toMatchObject({ ok: false, issues: [{ message: 'cannot read the file (ENOENT)' }] });
  });

  it('reads an empty file as no bytes', async () => {
    const p = await project({ 'roles/empty.md': '' });
    const read = await readBounded(join(p.dir, 'roles/empty.md'), 'roles/empty.md', limit);
    expect(read.ok && read.value.length).toBe(0);
  });

  it.skipIf(process.platform !== 'linux')('reads files whose size the system reports as 0 to their end, within the limit', async () => {
    // /proc files are regular files of size 0 that hold text once read.
    const whole = await readBounded('/proc/self/status', 'status', { maxBytes: 1024 * 1024, noun: 'a file' });
    expect(whole.ok && Buffer.from(whole.value).toString()).toMatch(/^Name:/);
    expect(await readBounded('/proc/self/status', 'status', { maxBytes: 16, noun: 'a file' })).toMatchObject({
      ok: false,
      issues: [{ message: 'file is too large (17 bytes): a file may hold at most 16 bytes' }],
    });
  });

  it.skipIf(process.platform === 'win32')('refuses a named pipe at once instead of waiting for a writer', async () => {
    const p = await project({});
    execFileSync('mkfifo', [join(p.dir, 'pipe.md')]);
    expect(await readBounded(join(p.dir, 'pipe.md'), 'pipe.md', limit)).toEqual({
      ok: false,
      issues: [{ file: 'pipe.md', line: 1, col: 1, message: 'cannot read the file (not a regular file)' }],
    });
  });
});

describe('listFilesUnder', () => {
  it('names every file by its path from the working folder, wherever the folder is', async () => {
    const p = await project({ 'work/roles/a.md': 'x', 'work/roles/team/b.md': 'x', 'work/c.md': 'x', 'work/other/d.md': 'x' });
    const names = async (cwd: string, dir: string): Promise<string[]> =>
      (await listFilesUnder(join(p.dir, cwd), join(p.dir, dir), (n) => n.endsWith('.md'))).map((f) => f.file);
    expect(await names('work', 'work/roles')).toEqual(['roles/a.md', 'roles/team/b.md']);
    expect(await names('work/roles', 'work/roles')).toEqual(['a.md', 'team/b.md']);
    expect(await names('work/roles/team', 'work/roles')).toEqual(['../a.md', 'b.md']);
    expect(await names('work/roles', 'work')).toEqual(['../c.md', '../other/d.md', 'a.md', 'team/b.md']);
    expect(await names('.', 'work/roles/team')).toEqual(['work/roles/team/b.md']);
    expect(await names('work/other', 'work/roles')).toEqual(['../roles/a.md', '../roles/team/b.md']);
    expect(await names('work/roles/team', 'work/other')).toEqual(['../../other/d.md']);
    for (const cwd of ['.', 'work', 'work/roles', 'work/roles/team', 'work/other']) {
      for (const f of await listFilesUnder(join(p.dir, cwd), join(p.dir, 'work'), () => true)) {
        expect(f.file).toBe(displayPath(join(p.dir, cwd), f.abs));
      }
    }
  });
});
