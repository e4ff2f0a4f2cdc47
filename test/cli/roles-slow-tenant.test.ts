import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, project, roleText, runOnTerminal, TOKEN } from './roles-kit.js';
import { faultProxy, heldTwice } from './roles-proxy-kit.js';

describe('a tenant that does not answer in time', () => {
  it('plan says so on stderr without --verbose, tries once more, and fails in one line', async () => {
    const em = await emulator({ latencyMs: 500 });
    const p = await project({
      'roleflow.config.yaml': `tenants:\n  slow:\n    base_url: ${em.baseUrl}\n    timeout: 100ms\n    retries: 4\n`,
      'roles/a.md': '---\nname: a\ndescription: d\n---\nc\n',
    });
    const r = await runCli(['plan', '--tenant', 'slow'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'GET /admin/roles/get: no response within 100ms; trying again (2/2)\n' +
        'error: GET /admin/roles/get: no response within 100 ms (after 2 attempts)\n',
    );
    expect(r.stdout).toBe('');
  });
});

describe('a tenant slower than its timeout at carrying out creates', () => {
  const files = { 'roles/a.md': roleText('a', 'da', 'ca'), 'roles/b.md': roleText('b', 'db', 'cb'), 'roles/c.md': roleText('c', 'dc', 'cc') };
  const isCreate = (path: string): boolean => path.endsWith('/create');

  async function slowTenant(holdMs: number, timeout: string) {
    const em = await emulator();
    const proxy = await faultProxy(em, (req) => (isCreate(req.path) ? { holdMs } : {}));
    const p = await project({ ...files, 'roleflow.config.yaml': `tenants:\n  slow:\n    base_url: ${proxy.baseUrl}\n    timeout: ${timeout}\n` });
    const cli = (args: string[]) => runCli([...args, '--tenant', 'slow'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    const creates = () => em.requests().filter((r) => isCreate(r.path)).length;
    return { em, proxy, cli, creates };
  }

  it('holds creates 2.5 s with timeout 1s: no Role twice, no success claimed for an unknown outcome, one more apply converges', async () => {
    const { em, proxy, cli, creates } = await slowTenant(2_500, '1s');
    const first = await cli(['apply', '--auto-approve']);
    await proxy.settled();
    expect(heldTwice(em)).toEqual({});
    expect(creates()).toBe(3);
    const unknown = (first.stdout.match(/^\? outcome unknown: create [abc]: /gm) ?? []).length;
    const created = (first.stdout.match(/^\+ created [abc] /gm) ?? []).length;
    expect(unknown + created).toBe(3);
    if (unknown === 0) {
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Apply complete: 3 created, 0 updated, 0 deleted.');
    } else {
      expect(first.code).toBe(1);
      expect(first.stdout + first.stderr).not.toContain('Apply complete');
      expect(first.stderr).toContain('Run `roleflow apply` again');
    }
    const again = await cli(['apply', '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(em.roles().map((r) => r.name).sort()).toEqual(['a', 'b', 'c']);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a create still held when the settle window closes is reported unknown, exit 1, never re-sent', async () => {
    const { em, proxy, cli, creates } = await slowTenant(6_000, '500ms');
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code).toBe(1);
    for (const name of ['a', 'b', 'c']) {
      expect(first.stdout).toContain(
        `? outcome unknown: create ${name}: POST /admin/roles/create: no response within 500 ms; it had not appeared on the tenant 1s later, and it was not sent again: the tenant may still create it`,
      );
    }
    expect(first.stdout).not.toContain('+ created');
    expect(first.stderr).toContain('Apply failed: 3 of 3 changes with an unknown outcome; 0 succeeded.');
    expect(first.stderr).toContain('The tenant did not say whether 3 creates were carried out, and they were not sent again');
    expect(first.stderr).toContain('Run `roleflow apply` again: it plans from the tenant as it is now, so it converges.');
    const json = first.stdout + first.stderr;
    expect(json).not.toContain('Apply complete');
    await proxy.settled();
    expect(creates()).toBe(3);
    expect(em.roles().map((r) => r.name).sort()).toEqual(['a', 'b', 'c']);
    const again = await cli(['apply', '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a create that lands within the settle window is created, not sent twice', async () => {
    const { em, cli, creates } = await slowTenant(1_600, '1s');
    const first = await cli(['apply', '--auto-approve', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const doc = JSON.parse(first.stdout) as { status: string; summary: Record<string, number>; results: { name: string; id: string; status: string }[] };
    expect(doc).toMatchObject({ status: 'applied', summary: { created: 3, unknown: 0 } });
    expect(first.stderr).toContain('POST /admin/roles/create: no response within 1000 ms; not sent again: watching the tenant for up to 2s to see whether role "a" appears\n');
    expect(creates()).toBe(3);
    const ids = Object.fromEntries(em.roles().map((r) => [r.name, r.id]));
    expect(Object.fromEntries(doc.results.map((r) => [r.name, r.id]))).toEqual(ids);
  });
});

describe('on a terminal, while a create is watched', () => {
  it('the notice starts on a wiped line, never at the end of the progress line', async () => {
    const em = await emulator();
    const proxy = await faultProxy(em, (req) => (req.path.endsWith('/create') ? { holdMs: 400 } : {}));
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': 'tenants:\n  test:\n    base_url: http://127.0.0.1:1\n    timeout: 200ms\n' });
    const r = await runOnTerminal(p, { ...em, baseUrl: proxy.baseUrl }, ['apply', '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('\r\x1b[2KPOST /admin/roles/create: no response within 200 ms; not sent again: watching the tenant');
    expect(r.stderr).not.toMatch(/…POST/);
    expect(r.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });
});
