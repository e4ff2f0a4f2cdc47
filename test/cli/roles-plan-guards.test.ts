import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, mutations, project, requestCount, roleText, run, seed } from './roles-kit.js';

describe('plan: refusals that protect the user', () => {
  it('refuses --out - with a usage error: a saved plan is a file, --json prints to stdout', async () => {
    const em = await emulator();
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    const r = await run(p, em, ['plan', '--out', '-']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: --out -: a saved plan must be a file; use --json to print the plan on stdout\n');
    expect(r.stdout).toBe('');
    expect(await readdir(p.dir)).toEqual(['roles']);
    expect(em.requests()).toEqual([]);
  });

  it('notes a rename into a name another Role keeps, in text and JSON', async () => {
    const em = await emulator();
    const x = await seed(em, 'x', 'd', 'c');
    const y = await seed(em, 'y', 'd', 'c');
    const p = await project({});
    expect((await run(p, em, ['pull'])).code).toBe(0);
    await rm(join(p.dir, 'roles/y.md'));
    await p.write('roles/x.md', roleText('y', 'd', 'c', x));
    const note = `after this plan 2 Roles will be named "y": "x" (id ${x}) is renamed to it, and the Role with id ${y} keeps it`;

    const text = await run(p, em, ['plan']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`~ update y (roles/x.md, id ${x})`);
    expect(text.stdout).toContain(`Notes:\n  - ${note}\n`);
    const json = await run(p, em, ['plan', '--json']);
    expect((JSON.parse(json.stdout) as { notes: string[] }).notes).toEqual([note]);
  });

  it('refuses a saved rename once another Role has taken its new name', async () => {
    const em = await emulator();
    const x = await seed(em, 'x', 'd', 'c');
    const p = await project({ 'roles/x.md': roleText('z', 'd', 'c', x) });
    expect((await run(p, em, ['plan', '--out', 'plan.json'])).code).toBe(0);
    await seed(em, 'z', 'd', 'someone else');
    const mark = requestCount(em);

    const applied = await run(p, em, ['apply', 'plan.json']);
    expect(applied.code).toBe(4);
    expect(applied.stderr).toContain('the Roles named "z" changed on the tenant since the plan was made');
    expect(mutations(em, mark)).toEqual([]);
  });

  it('refuses prune with no role files at all (exit 4, nothing sent) unless --allow-empty-prune or the config allows it', async () => {
    const em = await emulator();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await seed(em, name);
    const p = await project({});
    await p.write('emptydir/README.md', 'Role files go here.\n');
    const why = 'error: there are no role files, yet prune would delete every Role on the tenant (5): refusing the plan.';

    const planned = await run(p, em, ['plan', '--prune', '--roles', 'emptydir']);
    expect(planned.code).toBe(4);
    expect(planned.stderr).toContain(`${why} If the roles folder is right and the tenant is to be emptied, add --allow-empty-prune (or roles.allow_empty_prune: true)`);
    const mark = requestCount(em);
    const refused = await run(p, em, ['apply', '--prune', '--auto-approve', '--roles', 'emptydir']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(why);
    expect(mutations(em, mark)).toEqual([]);

    await p.write('roleflow.config.yaml', 'roles: { allow_empty_prune: true }\n');
    expect((await run(p, em, ['plan', '--prune', '--roles', 'emptydir'])).code).toBe(0);
    await p.write('roleflow.config.yaml', '');
    const applied = await run(p, em, ['apply', '--prune', '--allow-empty-prune', '--auto-approve', '--roles', 'emptydir']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(em.roles()).toEqual([]);
  });

  it('documents --allow-empty-prune in the help of plan and apply', async () => {
    for (const command of ['plan', 'apply']) {
      const help = await runCli([command, '--help']);
      expect(help.stdout).toContain('--allow-empty-prune');
    }
  });
});

describe("apply PLANFILE: today's guards and alteration", () => {
  async function savedPrunePlan() {
    const em = await emulator();
    const adminId = await seed(em, 'admin-root', 'root', 'You are root.');
    await seed(em, 'kept', 'k', 'c');
    const p = await project({ 'roles/kept.md': roleText('kept', 'k', 'c') });
    const planned = await run(p, em, ['plan', '--prune', '--out', 'plan.json']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete.');
    return { em, p, adminId };
  }

  it('refuses a saved plan that protect, added since, forbids: exit 4, nothing sent', async () => {
    const { em, p, adminId } = await savedPrunePlan();
    await p.write('roleflow.config.yaml', 'roles: { protect: ["admin-*"] }\n');
    const mark = requestCount(em);
    const r = await run(p, em, ['apply', 'plan.json']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: the saved plan plan.json is refused; nothing was applied:\n');
    expect(r.stderr).toContain('  - today\'s config refuses it: Role "admin-root" is protected (protect: "admin-*"): refusing to delete it\n');
    expect(em.requests().slice(mark)).toEqual([]);
    expect(em.roles().map((x) => x.id)).toContain(adminId);
  });

  it('refuses a saved plan over max_deletes set since, saying "1 delete" (exit 4, JSON reasons)', async () => {
    const { em, p } = await savedPrunePlan();
    await p.write('roleflow.config.yaml', 'roles: { max_deletes: 0 }\n');
    const mark = requestCount(em);
    const r = await run(p, em, ['apply', 'plan.json', '--json']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'refused',
      results: [],
      reasons: ["today's config refuses it: 1 delete planned, more than max_deletes (0): refusing the plan"],
    });
    expect(mutations(em, mark)).toEqual([]);
    expect(em.roles()).toHaveLength(2);
  });

  it('refuses a hand-edited plan: an added delete, changed content, a removed digest (exit 4, nothing sent)', async () => {
    const em = await emulator();
    const adminId = await seed(em, 'admin-root', 'root', 'You are root.');
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    expect((await run(p, em, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const original = JSON.parse(await p.read('plan.json')) as Record<string, unknown> & { changes: Record<string, unknown>[] };
    expect(original['digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    const admin = em.roles().find((x) => x.id === adminId)!;
    const { roleStateHash } = await import('../../src/core/plan/index.js');
    const edits: Record<string, unknown> = {
      'added.json': {
        ...original,
        changes: [
          ...original.changes,
          { action: 'delete', name: 'admin-root', id: adminId, before: { name: 'admin-root', description: 'root', content: 'You are root.' }, remote_hash: roleStateHash(admin) },
        ],
      },
      'content.json': { ...original, changes: [{ ...original.changes[0], after: { name: 'a', description: 'd', content: 'injected' } }] },
      'nodigest.json': { ...original, digest: undefined },
    };
    const mark = requestCount(em);
    for (const [file, plan] of Object.entries(edits)) {
      await p.write(file, JSON.stringify(plan, null, 2));
      const r = await run(p, em, ['apply', file]);
      expect(r.code, `${file}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toContain(`error: the saved plan ${file} is refused; nothing was applied:`);
      expect(r.stderr).toMatch(file === 'nodigest.json' ? /it has no digest/ : /it was altered since `roleflow plan --out` wrote it/);
    }
    expect(em.requests().slice(mark)).toEqual([]);
    // The plan as written, reformatted but not changed, is still the plan.
    await p.write('reformatted.json', JSON.stringify(original));
    const r = await run(p, em, ['apply', 'reformatted.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(em.roles().map((x) => x.name).sort()).toEqual(['a', 'admin-root']);
  });

  it('applies a saved empty prune made with --allow-empty-prune: the consent is part of the plan', async () => {
    const em = await emulator();
    for (const name of ['x', 'y']) await seed(em, name);
    const p = await project({});
    await p.write('empty/README.md', 'nothing\n');
    const planned = await run(p, em, ['plan', '--prune', '--allow-empty-prune', '--roles', 'empty', '--out', 'plan.json']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(await p.read('plan.json'))).toMatchObject({ options: { allow_empty_prune: true } });
    const applied = await run(p, em, ['apply', 'plan.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(em.roles()).toEqual([]);
  });
});
