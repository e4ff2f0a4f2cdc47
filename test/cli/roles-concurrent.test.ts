import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { emulator, project, roleText, TOKEN } from './roles-kit.js';
import { barrier, faultProxy } from './roles-proxy-kit.js';

const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

describe('two applies at once against one tenant', () => {
  it('converge: each Role once, the same copy kept by both (the lowest id), plan shows no change', async () => {
    const em = await emulator({ latencyMs: 100 });
    // Both processes list the tenant before either creates anything: the worst case, every time.
    const lists = barrier(2);
    let listed = 0;
    const proxy = await faultProxy(em, (req) => (req.method === 'GET' && ++listed <= 2 ? { gate: lists.wait() } : {}));
    const files = Object.fromEntries(NAMES.map((n) => [`roles/${n}.md`, roleText(n, `about ${n}`, `You are ${n}.`)]));
    const p = await project({ ...files, 'roleflow.config.yaml': `tenants:\n  shared:\n    base_url: ${proxy.baseUrl}\n    timeout: 30s\n` });
    const apply = () => runBin(['apply', '--auto-approve', '--tenant', 'shared'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });

    const [one, two] = await Promise.all([apply(), apply()]);
    for (const r of [one, two]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Apply complete: 5 created, 0 updated, 0 deleted.');
    }
    // Both created every Role: ten creates reached the tenant.
    expect(em.requests().filter((r) => r.path.endsWith('/create') && r.status === 200)).toHaveLength(10);
    const both = one.stdout + two.stdout;
    for (const name of NAMES) {
      const ids = [...both.matchAll(new RegExp(`^\\+ created ${name} \\(id ([^)]+)\\)$`, 'gm'))].map((m) => m[1]!).sort();
      expect(ids).toHaveLength(2);
      // Whoever resolved it kept the lowest id and said so.
      expect(both).toMatch(new RegExp(`^= ${name}: another apply created it at the same time; kept id ${ids[0]} \\(the lowest\\), removed 1 copy`, 'm'));
      expect(em.roles().filter((r) => r.name === name).map((r) => r.id)).toEqual([ids[0]]);
    }

    const third = await runBin(['apply', '--auto-approve', '--tenant', 'shared'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain('No changes.');
    expect(em.roles().map((r) => r.name).sort()).toEqual(NAMES);
    const plan = await runBin(['plan', '--detailed-exitcode', '--tenant', 'shared'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(plan.code, plan.stdout).toBe(0);
  });

  it('never deletes a Role that differs from what it created, nor a protected copy', async () => {
    const em = await emulator({ latencyMs: 50 });
    const lists = barrier(2);
    let listed = 0;
    const proxy = await faultProxy(em, (req) => (req.method === 'GET' && ++listed <= 2 ? { gate: lists.wait() } : {}));
    const base = { 'roleflow.config.yaml': `tenants:\n  shared:\n    base_url: ${proxy.baseUrl}\n    timeout: 30s\nroles: { protect: ["guarded-*"] }\n` };
    // Two checkouts at different commits: "other" differs in content, "guarded-x" is the same.
    const mine = await project({ ...base, 'roles/other.md': roleText('other', 'd', 'mine'), 'roles/g.md': roleText('guarded-x', 'd', 'c') });
    const theirs = await project({ ...base, 'roles/other.md': roleText('other', 'd', 'theirs'), 'roles/g.md': roleText('guarded-x', 'd', 'c') });
    const apply = (dir: string) => runBin(['apply', '--auto-approve', '--tenant', 'shared'], { cwd: dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    const [a, b] = await Promise.all([apply(mine.dir), apply(theirs.dir)]);

    expect(em.roles().filter((r) => r.name === 'other').map((r) => r.content).sort()).toEqual(['mine', 'theirs']);
    expect(em.roles().filter((r) => r.name === 'guarded-x')).toHaveLength(2);
    for (const r of [a, b]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/✗ failed to create guarded-x \(id [^)]+\): the tenant holds 2 identical copies \(another apply created it at the same time\); not removed, the name is protected \(protect: "guarded-\*"\): delete one by hand/);
      expect(r.stdout).toContain('+ created other');
    }
  });
});
