import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runBin, runCli, tempDir } from '../helpers/cli.js';
import { version } from '../../src/cli.js';

describe('roleflow as a process', () => {
  it('prints its version', async () => {
    const r = await runBin(['--version']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.trim()).toBe(version());
  });

  it('lists every command in --help', async () => {
    const r = await runBin(['--help']);
    expect(r.code).toBe(0);
    for (const command of ['validate', 'plan', 'apply', 'pull', 'test', 'serve']) expect(r.stdout).toContain(`roleflow ${command}`);
  });

  it('groups the commands of --help under five headings, none a near-duplicate of another (preview was alone under "Roles")', async () => {
    const r = await runBin(['--help']);
    const headings = r.stdout.split('\n').filter((l) => /^[A-Z][\w ,]*\w$/.test(l));
    expect(headings.sort()).toEqual(['Embedded tenant', 'Flow tests', 'Getting started', 'History, rollback and drift', 'Roles as code']);
  });

  it('shows examples in each command help', async () => {
    for (const command of ['init', 'validate', 'plan', 'apply', 'pull', 'test', 'serve']) {
      const r = await runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(/Examples?/);
    }
  });

  it('a mistyped flag gets the nearest option of the command', async () => {
    expect(await runCli(['plan', '--prue'])).toMatchObject({
      code: 1,
      stderr: 'error: Unsupported option name ("--prue") (did you mean "--prune"?) (see roleflow plan --help)\n',
    });
    expect((await runCli(['report', 'merge', '--alow-partial', 'a.json'])).stderr).toContain('(did you mean "--allow-partial"?)');
    expect((await runCli(['plan', '--zzzzzz'])).stderr).not.toContain('did you mean');
  });

  it('roleflow help COMMAND is COMMAND --help; an unknown one is one line, exit 1', async () => {
    for (const command of ['plan', 'report merge']) {
      const viaHelp = await runCli(['help', ...command.split(' ')]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe((await runCli([...command.split(' '), '--help'])).stdout);
    }
    expect((await runCli(['help'])).stdout).toBe((await runCli(['--help'])).stdout);
    expect(await runCli(['help', 'plna'])).toMatchObject({ code: 1, stdout: '', stderr: 'error: unknown command "plna"; roleflow --help lists the commands\n' });
  });

  it('names every option value in help (no #0 placeholders), and the descriptions stay aligned', async () => {
    const all = await runBin(['--help']);
    expect(all.stdout).not.toContain('#0');
    expect(all.stdout).toContain('[--port PORT]');
    for (const command of ['init', 'validate', 'plan', 'apply', 'pull', 'test', 'serve', 'report merge', 'preview', 'history', 'history show', 'rollback', 'drift']) {
      const r = await runCli([...command.split(' '), '--help']);
      expect(r.stdout, command).not.toContain('#0');
      const rows = r.stdout.split('\n').filter((l) => /^ {2}--/.test(l));
      const starts = new Set(rows.map((l) => /^( {2}\S+(?: [A-Z_|/[\]=a-z]+)?) +/.exec(l)![0].length));
      expect(starts.size, `${command}: ${rows.join('\n')}`).toBe(1);
    }
    expect((await runCli(['plan', '--help'])).stdout).toMatch(/^ {2}--config FILE +Config file/m);
    // A flag of one name may take different values in two commands.
    expect((await runCli(['rollback', '--help'])).stdout).toMatch(/^ {2}--to ID\|COMMIT +A journal record id/m);
    expect((await runCli(['promote', '--help'])).stdout).toMatch(/^ {2}--to NAME +The tenant to promote them to/m);
  });

  it('puts usage errors on stderr, one line, exit 1', async () => {
    const r = await runBin(['plna']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: unknown command "plna" (did you mean "roleflow plan"?); roleflow --help lists the commands\n');
    // A mistyped second word is matched over the whole command path.
    expect((await runCli(['report', 'comapre', 'a.json', 'b.json'])).stderr).toBe('error: unknown command "report comapre" (did you mean "roleflow report compare"?); roleflow --help lists the commands\n');
    expect((await runCli(['reprot', 'merge', 'a.json'])).stderr).toBe('error: unknown command "reprot merge" (did you mean "roleflow report merge"?); roleflow --help lists the commands\n');
  });

  it('reports an invalid option value without a stack trace', async () => {
    const r = await runCli(['serve', '--port', 'abc']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: Invalid value for --port: expected a number (got "abc") (see roleflow serve --help)\n');
  });

  it('uses no colour when piped or with NO_COLOR', async () => {
    const piped = await runBin(['--help']);
    expect(piped.stdout).not.toMatch(/\x1b\[/);
    const noColor = await runCli(['--help'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
  });

  it('uses colour when piped with FORCE_COLOR (a CI log that renders it), unless NO_COLOR or FORCE_COLOR=0', async () => {
    expect((await runBin(['--help'], { env: { FORCE_COLOR: '1' } })).stdout).toMatch(/\x1b\[/);
    expect((await runBin(['--help'], { env: { FORCE_COLOR: '0' } })).stdout).not.toMatch(/\x1b\[/);
    expect((await runBin(['--help'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toMatch(/\x1b\[/);
    const { dir, cleanup } = await tempDir('roleflow-color-');
    onTestFinished(cleanup);
    await mkdir(join(dir, 'roles'));
    await writeFile(join(dir, 'roles/a.md'), '---\nname: a\ndescription: d\n---\nc\n');
    expect((await runBin(['plan'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).toContain('\x1b[32m  + create a');
    expect((await runBin(['plan'], { cwd: dir })).stdout).not.toMatch(/\x1b\[/);
  });

});
