import { describe, expect, it } from 'vitest';
import { emulator, mutations, project, roleText, run, runOnTerminal, seed, tenantState } from './roles-kit.js';

describe('apply on a terminal', () => {
  it("asks, and applies on 'yes'", async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await runOnTerminal(p, em, ['apply'], { answer: 'yes' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ create a (roles/a.md)');
    expect(r.stderr).toContain("Apply these changes? Only 'yes' is accepted:");
    expect(r.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted.');
    expect(tenantState(em)).toEqual(['a: d / c']);
  });

  it('sends nothing on any other answer', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await runOnTerminal(p, em, ['apply'], { answer: 'y' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Apply cancelled: nothing was changed.');
    expect(mutations(em)).toEqual([]);
  });

  it('does not ask when there is nothing to do', async () => {
    const em = await emulator();
    await seed(em, 'a', 'd', 'c');
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await runOnTerminal(p, em, ['apply']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes.');
    expect(r.stderr).not.toContain('Apply these changes?');
  });

  it('shows progress on stderr, overwritten in place and cleared at the end', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roles/b.md': roleText('b', 'd', 'c') });
    const r = await runOnTerminal(p, em, ['apply', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\r\x1b[2Kapplying 0/2…');
    expect(r.stderr).toContain('\r\x1b[2Kapplying 1/2…');
    expect(r.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('on Ctrl-C starts no new change, says how far it got and exits 130', async () => {
    const em = await emulator({ latencyMs: 20 });
    const p = await project(Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`roles/${n}.md`, roleText(n, 'd', 'c')])));
    const r = await runOnTerminal(p, em, ['apply', '--auto-approve', '--concurrency', '1'], { interruptWhen: /\+ created a / });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Interrupted');
    expect(r.stderr).toMatch(/Apply interrupted: [12] of 4 changes done/);
    expect(em.roles().length).toBeLessThan(4);
  });
});

describe('apply results', () => {
  it('reports a partial failure: exit 1, what failed and what succeeded', async () => {
    const id = 'kept-id';
    const em = await emulator({ disable: ['POST /admin/roles/create', 'POST /admin/role/create'] }, [{ id, name: 'kept', description: 'old', content: 'old' }]);
    const p = await project({ 'roles/kept.md': roleText('kept', 'new', 'new'), 'roles/fresh.md': roleText('fresh', 'd', 'c') });
    const r = await run(p, em, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`~ updated kept (id ${id})`);
    expect(r.stdout).toMatch(/^✗ failed to create fresh: .*404/m);
    expect(r.stderr).toContain('Apply failed: 1 of 2 changes failed; 1 succeeded (0 created, 1 updated, 0 deleted).');
    expect(r.stderr).toContain('Run `roleflow apply` again');
  });

  it('converges through injected faults, with no duplicate names', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `role-${String(i).padStart(2, '0')}`);
    const stale = ['role-00', 'role-01', 'gone-1', 'gone-2'].map((name) => ({ name, description: 'old', content: 'old' }));
    const em = await emulator({ failRate: 0.2, lostRate: 0.1, seed: 11 }, stale);
    const files = Object.fromEntries(names.map((n) => [`roles/${n}.md`, roleText(n, `about ${n}`, `You are ${n}.\n`)]));
    // A short timeout keeps the settle window after a create answered 500 short (see settleWaits).
    const p = await project({ ...files, 'roleflow.config.yaml': `tenants:\n  test:\n    base_url: ${em.baseUrl}\n    timeout: 500ms\n` });
    let last = await run(p, em, ['apply', '--auto-approve', '--prune']);
    for (let attempt = 0; attempt < 3 && last.code !== 0; attempt++) last = await run(p, em, ['apply', '--auto-approve', '--prune']);
    expect(last.code, last.stdout + last.stderr).toBe(0);
    const remote = em.roles().map((r) => r.name).sort();
    expect(remote).toEqual(names);
    expect((await run(p, em, ['plan', '--prune', '--detailed-exitcode'])).code).toBe(0);
    // The faults did happen: failed answers and answers lost after the change was made.
    const statuses = new Set(em.requests().map((r) => r.status));
    expect(statuses.has(0)).toBe(true);
    expect(statuses.has(500) || statuses.has(503)).toBe(true);
  });

});
