import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulator, project, roleText, run, seed, tenantState } from './roles-kit.js';

/** A tenant with support-a, support-b, billing and legacy; files that change the first three and add fresh. */
async function setup(): Promise<{ p: Awaited<ReturnType<typeof project>>; em: Awaited<ReturnType<typeof emulator>> }> {
  const em = await emulator();
  for (const name of ['support-a', 'support-b', 'billing', 'legacy']) await seed(em, name, 'old', 'old');
  const p = await project({
    'roles/support-a.md': roleText('support-a', 'new', 'new'),
    'roles/support-b.md': roleText('support-b', 'new', 'new'),
    'roles/billing.md': roleText('billing', 'new', 'new'),
    'roles/fresh.md': roleText('fresh', 'new', 'new'),
  });
  return { p, em };
}

describe('targeting: plan and apply only some Roles', () => {
  it('plan --target NAME_OR_GLOB plans only those Roles, says the plan is partial, and prunes nothing else', async () => {
    const { p, em } = await setup();
    const r = await run(p, em, ['plan', '--target', 'support-*', '--prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('~ update support-a');
    expect(r.stdout).toContain('~ update support-b');
    expect(r.stdout).not.toMatch(/billing|fresh|legacy/);
    expect(r.stdout).toContain('partial plan: only Roles matching "support-*" are planned');
    expect(r.stdout).toContain('Plan: 0 to create, 2 to update, 0 to delete.');
  });

  it('apply ROLEFILE... applies only the Roles of those files', async () => {
    const { p, em } = await setup();
    const r = await run(p, em, ['apply', 'roles/billing.md', 'roles/fresh.md', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: 1 created, 1 updated, 0 deleted.');
    expect(tenantState(em)).toEqual(['billing: new / new', 'fresh: new / new', 'legacy: old / old', 'support-a: old / old', 'support-b: old / old']);
  });

  it('a saved partial plan records its targets and applies exactly them', async () => {
    const { p, em } = await setup();
    expect((await run(p, em, ['plan', '--target', 'support-a', '--out', 'plan.json'])).code).toBe(0);
    const saved = JSON.parse(await p.read('plan.json')) as { options: { targets?: string[] }; changes: unknown[] };
    expect(saved.options.targets).toEqual(['support-a']);
    expect(saved.changes).toHaveLength(1);
    expect((await run(p, em, ['apply', 'plan.json'])).code).toBe(0);
    expect(tenantState(em)).toContain('support-a: new / new');
    expect(tenantState(em)).toContain('support-b: old / old');
  });

  it('a role file that the plan does not read, or --target with a saved plan, is one line and nothing is sent', async () => {
    const { p, em } = await setup();
    await writeFile(join(p.dir, 'stray.md'), roleText('stray', 'd', 'c'));
    const stray = await run(p, em, ['apply', 'stray.md', '--auto-approve']);
    expect(stray).toMatchObject({ code: 1, stderr: 'error: stray.md is not a role file in roles/ (role files given as arguments must be among those the plan reads)\n' });
    const mixed = await run(p, em, ['apply', 'plan.json', '--target', 'x']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('--target does not go with a saved plan');
    expect(tenantState(em)).toEqual(['billing: old / old', 'legacy: old / old', 'support-a: old / old', 'support-b: old / old']);
  });

  it('a target that matches nothing says so', async () => {
    const { p, em } = await setup();
    const r = await run(p, em, ['plan', '--target', 'suport-a']);
    expect(r.stdout).toContain('--target "suport-a" matches no role file and no Role on the tenant');
    expect(r.stdout).toContain('No changes.');
  });
});
