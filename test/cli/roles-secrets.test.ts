import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, runCli, type CliResult } from '../helpers/cli.js';
import { emulator, project, roleText, run, seed, TOKEN, type Project } from './roles-kit.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

const WRONG = 'rf-SECRET-wrong-0c9d8e7f6a5b';

function expectNoToken(r: CliResult, ...tokens: string[]): void {
  for (const token of tokens) {
    expect(r.stdout).not.toContain(token);
    expect(r.stderr).not.toContain(token);
  }
}

/** The built CLI as a process, against the emulator, with `token` in the environment. */
function runProcess(p: Project, em: RunningEmulator, args: string[], token = em.token): Promise<CliResult> {
  return runBin([...args, '--base-url', em.baseUrl, '--tenant', 'test'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: token } });
}

describe('the token never appears in any output', () => {
  it('in every role command, with --verbose, as real processes', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roles/b.md': roleText('b', 'd', 'c') });
    const plan = await runProcess(p, em, ['plan', '--verbose', '--out', 'plan.json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/^GET \/admin\/roles\/get 200 \d+ms$/m);
    const applied = await runProcess(p, em, ['apply', 'plan.json', '--verbose']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 2 created, 0 updated, 0 deleted.');
    const pulled = await runProcess(p, em, ['pull', '--roles', 'pulled', '--verbose', '--json']);
    expect(pulled.code).toBe(0);
    for (const r of [plan, applied, pulled]) expectNoToken(r, TOKEN);
    expect(await readFile(join(p.dir, 'plan.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('in failures: a refused token, a failed apply, a stale plan', async () => {
    const em = await emulator({ disable: ['POST /admin/roles/create', 'POST /admin/role/create'] });
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const refused = await runProcess(p, em, ['plan', '--verbose'], WRONG);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*40[13]/m);
    expectNoToken(refused, WRONG, TOKEN);

    const failed = await run(p, em, ['apply', '--auto-approve', '--verbose']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Apply failed');
    const failedJson = await run(p, em, ['apply', '--auto-approve', '--verbose', '--json']);
    expect(JSON.parse(failedJson.stdout)).toMatchObject({ status: 'failed' });
    for (const r of [failed, failedJson]) expectNoToken(r, TOKEN);

    const other = await emulator();
    expect((await run(p, other, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const stale = await run(p, em, ['apply', 'plan.json', '--verbose']);
    expect(stale.code).toBe(4);
    expectNoToken(stale, TOKEN);
  });

  it('is masked in the values of JSON outputs, never in their keys: a short token that is a common word breaks nothing', async () => {
    const token = 'summary';
    const em = await emulator({ token });
    const p = await project({ 'roles/a.md': roleText('a', 'the summary role', 'Write a summary.') });
    const env = { env: { ROLEFLOW_TOKEN: token } };
    const args = ['--base-url', em.baseUrl, '--tenant', 'test'];
    const json = async (argv: string[]): Promise<Record<string, unknown>> => {
      const r = await runCli([...argv, ...args], { cwd: p.dir, ...env });
      expect(r.stderr).toContain('warning: ROLEFLOW_TOKEN is only 7 characters');
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };

    const plan = await json(['plan', '--json']);
    expect(plan['summary']).toEqual({ create: 1, update: 0, delete: 0, unchanged: 0, unmanaged: 0 });
    expect(plan['changes']).toEqual([expect.objectContaining({ after: { name: 'a', description: 'the *** role', content: 'Write a ***.' } })]);
    expect(await json(['plan', '--format', 'json'])).toEqual({ ...plan, created_at: expect.any(String), digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    const applied = await json(['apply', '--auto-approve', '--json']);
    expect(applied).toMatchObject({ status: 'applied', summary: expect.objectContaining({ created: 1 }) });
    const pulled = await json(['pull', '--roles', 'pulled', '--json']);
    expect(pulled['summary']).toEqual({ written: 1, unchanged: 0, skipped: 0 });
  });

  it('keeps no token in the apply journal: a Role on the tenant whose name holds one is deleted by --prune', async () => {
    const em = await emulator();
    await seed(em, `stray-${TOKEN}`);
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const applied = await run(p, em, ['apply', '--prune', '--auto-approve']);
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 1 deleted.');
    const journal = await readFile(join(p.dir, '.roleflow', 'history', 'test.jsonl'), 'utf8');
    expect(journal).toContain('"name":"stray-***"');
    expect(journal).not.toContain(TOKEN);
    const listed = await run(p, em, ['history', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expectNoToken(listed, TOKEN);
  });

  it('keeps no short tenant token in the journal either, and history masks what an older journal holds', async () => {
    const em = await emulator({ token: 'tk-7777' });
    await seed(em, 'stray-tk-7777');
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const env = { env: { ROLEFLOW_TOKEN: 'tk-7777' } };
    const args = ['--base-url', em.baseUrl, '--tenant', 'test'];
    const applied = await runCli(['apply', '--prune', '--auto-approve', ...args], { cwd: p.dir, ...env });
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 1 deleted.');
    const path = join(p.dir, '.roleflow', 'history', 'test.jsonl');
    const journal = await readFile(path, 'utf8');
    expect(journal).not.toContain('tk-7777');
    // A journal written before names were masked.
    await writeFile(path, journal.replaceAll('stray-***', 'stray-tk-7777'));
    const id = (JSON.parse(journal.split('\n')[0]!) as { id: string }).id;
    for (const argv of [['history', '--json'], ['history'], ['history', 'show', id], ['history', 'show', id, '--json']]) {
      const r = await runCli([...argv, ...args], { cwd: p.dir, ...env });
      expect(r.code, r.stderr).toBe(0);
      if (argv.length > 1) expect(r.stdout).toContain('stray-***');
      expectNoToken(r, 'tk-7777');
    }
  });

  it('warns of a short token by the variable the tenant reads it from, not another one holding the same value', async () => {
    const em = await emulator({ token: 'abc' });
    const config = `default_tenant: staging\ntenants:\n  staging:\n    base_url: ${em.baseUrl}\n    token_env: STAGING_KEY\n`;
    const p = await project({ 'roleflow.config.yaml': config, 'roles/a.md': roleText('a', 'd', 'c') });
    const plan = await runCli(['plan'], { cwd: p.dir, env: { AN_ALIAS: 'abc', STAGING_KEY: 'abc' } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('warning: STAGING_KEY is only 3 characters');
  });

  it("hides another configured tenant's token, whatever its variable is called, when a Role on the tenant holds it", async () => {
    const prod = 'prodkey-4b5c6d7e8f90';
    const em = await emulator();
    await seed(em, 'stray', `copied ${prod}`, `The key: ${prod}.`);
    const config = `default_tenant: staging\ntenants:\n  staging:\n    base_url: ${em.baseUrl}\n    token_env: STAGING_KEY\n  production:\n    base_url: https://prod.example.invalid\n    token_env: PROD_KEY\n`;
    const p = await project({ 'roleflow.config.yaml': config, 'roles/a.md': roleText('a', 'd', 'c') });
    const env = { STAGING_KEY: em.token, PROD_KEY: prod };
    const plan = await runCli(['plan', '--prune', '--verbose'], { cwd: p.dir, env });
    expect(plan.stdout).toContain('delete stray');
    const planJson = await runCli(['plan', '--prune', '--json'], { cwd: p.dir, env });
    expect(JSON.parse(planJson.stdout)).toMatchObject({ changes: expect.arrayContaining([expect.objectContaining({ before: expect.objectContaining({ description: 'copied ***' }) })]) });
    const applied = await runCli(['apply', '--prune', '--auto-approve', '--verbose'], { cwd: p.dir, env });
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 1 deleted.');
    for (const r of [plan, planJson, applied]) expectNoToken(r, prod, em.token);
  });
});
