import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { project } from './roles-kit.js';

const BROKEN = '---\nname: a\ndescripton: x\n---\nc\n';

describe('plan with role files that cannot be read', () => {
  it('--json prints a plan holding the problems (nothing planned), and exits 1 with them on stderr', async () => {
    const p = await project({ 'roles/a.md': BROKEN });
    const r = await runBin(['plan', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    const plan = JSON.parse(r.stdout) as { changes: unknown[]; issues: { file: string; line: number; message: string }[]; tenant: { name: string } };
    expect(plan.changes).toEqual([]);
    expect(plan.tenant.name).toBe('local');
    expect(plan.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      'roles/a.md:2: missing required key "description"',
      'roles/a.md:3: unknown key "descripton" (did you mean "description"?)',
    ]);
    expect(r.stderr).toContain('roles/a.md:3:1: unknown key "descripton"');
  });

  it('--format markdown says nothing was planned and lists the problems, for the pull-request comment', async () => {
    const p = await project({ 'roles/a.md': BROKEN });
    const r = await runBin(['plan', '--format', 'markdown'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('**Nothing was planned: the role files have problems.**');
    expect(r.stdout).toContain('> - roles/a.md:3:1: unknown key');
    expect(r.stdout).not.toContain('No changes');
  });

  it('the text format prints the problems once, on stderr only', async () => {
    const p = await project({ 'roles/a.md': BROKEN });
    const r = await runBin(['plan'], { cwd: p.dir });
    expect(r).toMatchObject({ code: 1, stdout: '' });
  });
});
