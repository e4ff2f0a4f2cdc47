import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { call } from '../helpers/emulator.js';
import { emulator, mutations, project, requestCount, roleText, run, seed, tenantState } from './roles-kit.js';

describe('plan and apply against a tenant', () => {
  it('plans, applies, then plans no change; --detailed-exitcode says 2 then 0', async () => {
    const em = await emulator();
    const p = await project({
      'roles/support.md': roleText('support-agent', 'Tier-1 support', 'You are a support agent.'),
      'roles/nested/summarizer.md': roleText('summarizer', '', 'Summarize.\n\n- short'),
    });
    const before = await run(p, em, ['plan', '--detailed-exitcode']);
    expect(before.code).toBe(2);
    expect(before.stdout).toContain('+ create support-agent (roles/support.md)');
    expect(before.stdout).toContain('+ create summarizer (roles/nested/summarizer.md)');
    expect(before.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete.');
    expect(mutations(em)).toEqual([]);

    const applied = await run(p, em, ['apply', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^\+ created support-agent \(id [0-9a-f-]{36}\)$/m);
    expect(applied.stdout).toContain('Apply complete: 2 created, 0 updated, 0 deleted.');
    expect(tenantState(em)).toEqual(['summarizer:  / Summarize.\n\n- short', 'support-agent: Tier-1 support / You are a support agent.']);

    const after = await run(p, em, ['plan', '--detailed-exitcode']);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('No changes. The tenant matches roles/.');
  });

  it('updates with a diff, and renames a Role pinned by id', async () => {
    const em = await emulator();
    const id = await seed(em, 'old-name', 'desc', 'line one\nline two');
    const p = await project({ 'roles/r.md': roleText('new-name', 'desc', 'line one\nline 2', id) });
    const plan = await run(p, em, ['plan']);
    expect(plan.stdout).toContain(`~ update new-name (roles/r.md, id ${id})`);
    expect(plan.stdout).toContain('name: "old-name" → "new-name"');
    expect(plan.stdout).toMatch(/^\s+-line two$/m);
    expect(plan.stdout).toMatch(/^\s+\+line 2$/m);
    const applied = await run(p, em, ['apply', '--auto-approve']);
    expect(applied.stdout).toContain(`~ updated new-name (renamed from old-name; id ${id})`);
    expect(em.roles()).toEqual([expect.objectContaining({ id, name: 'new-name', content: 'line one\nline 2' })]);
  });

  it('lists Roles without a file as unmanaged; --prune deletes them', async () => {
    const em = await emulator();
    await seed(em, 'kept');
    const strayId = await seed(em, 'stray');
    const p = await project({ 'roles/kept.md': roleText('kept', 'kept role', 'You are kept.') });
    const plan = await run(p, em, ['plan']);
    expect(plan.stdout).toContain('Unmanaged: 1 Role on the tenant without a role file');
    expect(plan.stdout).toContain(`stray (id ${strayId})`);
    expect(plan.stdout).toContain('No changes.');

    const applied = await run(p, em, ['apply', '--prune', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`- deleted stray (id ${strayId})`);
    expect(em.roles().map((r) => r.name)).toEqual(['kept']);
  });

  it('refuses to touch a protected Role (exit 4, nothing sent)', async () => {
    const em = await emulator();
    await seed(em, 'admin-root');
    const mark = requestCount(em);
    const p = await project({
      'roleflow.config.yaml': 'roles: { protect: ["admin-*"] }\n',
      'roles/admin.md': roleText('admin-root', 'changed', 'changed'),
      'roles/new.md': roleText('new-one', 'd', 'c'),
    });
    const plan = await run(p, em, ['plan']);
    expect(plan.code).toBe(4);
    expect(plan.stdout).toContain('Refused by guards');
    expect(plan.stderr).toContain('Role "admin-root" is protected (protect: "admin-*")');
    const applied = await run(p, em, ['apply', '--auto-approve']);
    expect(applied.code).toBe(4);
    expect(mutations(em, mark)).toEqual([]);
  });

  it('refuses more deletes than max_deletes (exit 4, nothing sent)', async () => {
    const em = await emulator();
    for (const name of ['a', 'b', 'c']) await seed(em, name);
    const mark = requestCount(em);
    const p = await project({ 'roleflow.config.yaml': 'roles: { prune: true, max_deletes: 2 }\n', 'roles/x.md': roleText('x', 'd', 'c') });
    const plan = await run(p, em, ['plan']);
    expect(plan.code).toBe(4);
    expect(plan.stderr).toContain('3 deletes planned, more than max_deletes (2)');
    const applied = await run(p, em, ['apply', '--auto-approve', '--json']);
    expect(applied.code).toBe(4);
    expect(JSON.parse(applied.stdout)).toMatchObject({ status: 'refused', results: [] });
    expect(mutations(em, mark)).toEqual([]);
    // --no-prune overrides the config: nothing to delete, no guard.
    expect((await run(p, em, ['plan', '--no-prune'])).code).toBe(0);
  });

  it('applies a saved plan exactly, asking nothing', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const plan = await run(p, em, ['plan', '--out', 'plan.json']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain('Saved the plan to plan.json');
    // The files change after the review: the saved plan, not the files, is applied.
    await p.write('roles/a.md', roleText('a', 'other', 'other'));
    const applied = await run(p, em, ['apply', 'plan.json']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted.');
    expect(tenantState(em)).toEqual(['a: d / c']);
  });

  it('a plan of a tenant given by --base-url says to apply it with that --base-url, and that command applies it', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const env = { ROLEFLOW_TOKEN: em.token };
    const plan = await runCli(['plan', '--base-url', em.baseUrl, '--out', 'plan.json'], { cwd: p.dir, env });
    expect(plan.code).toBe(0);
    const hinted = /To carry out exactly this plan: roleflow (.*)$/m.exec(plan.stderr)?.[1];
    expect(hinted).toBe(`apply plan.json --base-url ${em.baseUrl}`);
    const applied = await runCli(hinted!.split(' '), { cwd: p.dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(tenantState(em)).toEqual(['a: d / c']);
  });

  it("a --base-url tenant is custom, not the embedded local, even when the config's default is local (as init writes it)", async () => {
    const em = await emulator();
    const p = await project({ 'roleflow.config.yaml': 'default_tenant: local\n', 'roles/a.md': roleText('a', 'd', 'c'), 'flows/e.yaml': 'flow: echo\ntransport: https\ntests:\n  - name: e\n    until: { steps: 1 }\n' });
    const env = { ROLEFLOW_TOKEN: em.token };
    const plan = await runCli(['plan', '--base-url', em.baseUrl], { cwd: p.dir, env });
    expect(plan.stdout.split('\n')[0]).toBe(`Tenant custom (${em.baseUrl})`);
    const test = await runCli(['test', '--base-url', em.baseUrl, '--json'], { cwd: p.dir, env });
    expect(JSON.parse(test.stdout).tenant).toEqual({ name: 'custom', base_url: em.baseUrl });
    // Without --base-url the default is the embedded tenant.
    expect((await runCli(['plan'], { cwd: p.dir })).stdout).toMatch(/^Tenant local \(embedded:/);
  });

  it('refuses a stale saved plan: exit 4, reasons listed, nothing sent', async () => {
    const em = await emulator();
    const id = await seed(em, 'a', 'd', 'old');
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'new'), 'roles/b.md': roleText('b', 'd', 'c') });
    expect((await run(p, em, ['plan', '--out', 'plan.json'])).code).toBe(0);
    await call(em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'd', content: 'changed by someone' } });
    await seed(em, 'b', 'x', 'y');
    const mark = requestCount(em);

    const applied = await run(p, em, ['apply', 'plan.json']);
    expect(applied.code).toBe(4);
    expect(applied.stderr).toContain('nothing was applied');
    expect(applied.stderr).toContain(`Role "a" (id ${id}) changed on the tenant since the plan was made`);
    expect(applied.stderr).toContain('the Roles named "b" changed on the tenant');
    expect(mutations(em, mark)).toEqual([]);
  });

  it('refuses a saved plan made for another tenant', async () => {
    const first = await emulator();
    const second = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    expect((await run(p, first, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const applied = await run(p, second, ['apply', 'plan.json']);
    expect(applied.code).toBe(4);
    expect(applied.stderr).toContain(`the plan was made for ${first.baseUrl}`);
    expect(mutations(second)).toEqual([]);
  });

  it('refuses to apply without --auto-approve when stdin is not a terminal, after showing the plan', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await run(p, em, ['apply']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+ create a (roles/a.md)');
    expect(r.stderr).toMatch(/^error: refusing to apply without confirmation: stdin is not a terminal\. Add --auto-approve/);
    expect(mutations(em)).toEqual([]);
  });

  it('with nothing to do, says No changes. and exits 0 whatever stdin is', async () => {
    const em = await emulator();
    await seed(em, 'a', 'd', 'c');
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const mark = requestCount(em);
    const r = await run(p, em, ['apply']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('No changes. The tenant matches roles/.');
    expect(r.stderr).toBe('');
    const json = await run(p, em, ['apply', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'no_changes', results: [] });
    expect(mutations(em, mark)).toEqual([]);
  });

  it('prints results as JSON with --json', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await run(p, em, ['apply', '--auto-approve', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { status: string; summary: object; results: { status: string; name: string; id: string }[] };
    expect(doc.status).toBe('applied');
    expect(doc.summary).toMatchObject({ created: 1, failed: 0 });
    expect(doc.results).toEqual([expect.objectContaining({ action: 'create', name: 'a', status: 'created', file: 'roles/a.md' })]);
    expect(doc.results[0]!.id).toBe(em.roles()[0]!.id);
  });

  it('plan --json and --format markdown', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const json = await run(p, em, ['plan', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ format_version: 1, summary: { create: 1 }, changes: [{ action: 'create', name: 'a' }] });
    const md = await run(p, em, ['plan', '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/\|/);
    const both = await run(p, em, ['plan', '--json', '--format', 'markdown']);
    expect(both.code).toBe(1);
  });

  it('works against the embedded local tenant across runs, saved plans included', async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const plan = await runCli(['plan', '--out', 'plan.json'], { cwd: p.dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Tenant local (embedded:.roleflow/local.json)');
    // Another run, another port: the saved plan still fits the same embedded tenant.
    const applied = await runCli(['apply', 'plan.json'], { cwd: p.dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted.');
    expect((await runCli(['plan', '--detailed-exitcode'], { cwd: p.dir })).code).toBe(0);
    expect(JSON.parse(await p.read('.roleflow/local.json'))).toEqual([expect.objectContaining({ name: 'a', description: 'd', content: 'c' })]);
  });

  it('uses colour only on a terminal', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    expect((await run(p, em, ['plan'])).stdout).not.toMatch(/\x1b\[/);
    expect((await run(p, em, ['plan'], { tty: true })).stdout).toMatch(/\x1b\[32m/);
  });
});
