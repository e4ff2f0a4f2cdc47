import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { emulator, project, roleText, run } from './roles-kit.js';

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
});
