import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { emulator, project, roleText } from './roles-kit.js';

describe('the process exits once its output is out', () => {
  it('a plan of megabytes reaches a pipe whole, and the saved plan is complete', async () => {
    const em = await emulator();
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`roles/r${i}.md`] = roleText(`r${i}`, 'd', `${String(i).padStart(4, '0')} `.repeat(2_000));
    const p = await project(files);
    const args = ['--base-url', em.baseUrl, '--tenant', 'test'];
    const r = await runBin(['plan', '--json', '--out', 'plan.json', ...args], { cwd: p.dir, env: { ROLEFLOW_TOKEN: em.token } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(2_000_000);
    const printed = JSON.parse(r.stdout) as { changes: unknown[] };
    expect(printed.changes).toHaveLength(200);
    const saved = JSON.parse(await p.read('plan.json')) as { changes: unknown[] };
    expect(saved.changes).toEqual(printed.changes);
  });
});
