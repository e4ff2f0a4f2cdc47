import { describe, expect, it } from 'vitest';
import { emulator, project, roleText, run, tenantState, TOKEN } from './roles-kit.js';

// A tenant with a smaller request limit than roleflow's own: it refuses a Role's request as sent
// (413). Applying again would send the same, so apply must not advise it — for that Role.
describe('apply when the tenant refuses a request as sent', () => {
  it('names the refused Role and says to change it, instead of advising to apply again', async () => {
    const em = await emulator({ maxBodyBytes: 2_000 });
    const p = await project({ 'roles/big.md': roleText('big', 'too big for this tenant', 'x'.repeat(3_000)), 'roles/small.md': roleText('small', 'fits', 'You are small.') });
    const r = await run(p, em, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('POST /admin/roles/create: 413 request body too large');
    expect(r.stderr).toContain('The tenant refused the request for big as it was sent: applying again sends the same and fails the same; change the role file (or the tenant\'s limits) first.');
    expect(r.stderr).not.toContain('again: it plans from the tenant as it is now');
    expect(tenantState(em)).toEqual(['small: fits / You are small.']);
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
    const json = await run(p, em, ['apply', '--auto-approve', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ results: [{ name: 'big', status: 'failed', refused: true }] });
  });
});
