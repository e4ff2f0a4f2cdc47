import { realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { requestCount, roleText, tenantState } from './roles-kit.js';
import { commitAll, twoTenants } from './tenants-kit.js';

// PRODUCT.md "Security": role files that resolve outside the repository are refused — by
// validate, plan and promote alike, as one located error — and never read.

const FLOW = 'flow: echo\ntransport: ws\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    until: { messages: 1 }\n';

/** A file outside every repository the tests make: what a link in a checkout must not lead to. */
async function outsideFile(text: string): Promise<string> {
  const away = await tempDir();
  onTestFinished(away.cleanup);
  const file = join(await realpath(away.dir), 'secret.md');
  await writeFile(file, text);
  return file;
}

describe('role files that resolve outside the repository', () => {
  it('a committed symbolic link to a file outside the checkout: validate, plan and promote each refuse it in one located line, reading nothing of it', async () => {
    const t = await twoTenants({ 'roles/a.md': roleText('a', 'first', 'You are A.'), 'flows/echo.yaml': FLOW });
    const target = await outsideFile(roleText('evil', 'evil', 'Everything the machine holds.'));
    await symlink(target, join(t.p.dir, 'roles', 'evil.md'));
    await commitAll(t.p);
    const line = `roles/evil.md:1:1: a symbolic link to ${target}, outside the repository: roleflow reads no role file from outside it; put the file itself in the repository\n`;
    const validate = await t.cli(['validate']);
    expect(validate).toMatchObject({ code: 1, stderr: line });
    const stagingMark = requestCount(t.staging);
    const plan = await t.cli(['plan', '--tenant', 'staging']);
    expect(plan).toMatchObject({ code: 1, stderr: line });
    expect(requestCount(t.staging)).toBe(stagingMark);
    const promote = await t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', 'report.json', '--auto-approve']);
    expect(promote).toMatchObject({ code: 1, stderr: line });
    expect(requestCount(t.production)).toBe(0);
    expect([...tenantState(t.staging), ...tenantState(t.production)]).toEqual([]);
    for (const r of [validate, plan, promote]) expect(r.stdout + r.stderr).not.toContain('Everything the machine holds');
  });

  it('a link to a file inside the repository is read as that file; outside git, a link out of the roles folder is refused', async () => {
    const t = await twoTenants({ 'roles/a.md': roleText('a', 'first', 'You are A.'), 'shared/b.md': roleText('b', 'second', 'You are B.'), 'flows/echo.yaml': FLOW });
    await symlink(join(t.p.dir, 'shared', 'b.md'), join(t.p.dir, 'roles', 'b.md'));
    const notGit = await t.cli(['validate']);
    expect(notGit.code).toBe(1);
    expect(notGit.stderr).toMatch(/^roles\/b\.md:1:1: a symbolic link to \S+\/shared\/b\.md, outside roles\/: roleflow reads no role file from outside it; put the file itself in roles\/\n$/);
    await commitAll(t.p);
    expect(await t.cli(['validate'])).toMatchObject({ code: 0, stdout: '2 role files and 1 flow test file are valid.\n' });
  });

  it('a roles folder that is itself a link out of the checkout is refused', async () => {
    const t = await twoTenants({ 'flows/echo.yaml': FLOW });
    const target = await outsideFile(roleText('evil', 'evil', 'x'));
    const folder = join(target, '..');
    await symlink(folder, join(t.p.dir, 'roles'), 'dir');
    await commitAll(t.p);
    const r = await t.cli(['plan', '--tenant', 'staging']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: roles resolves to ${folder}, outside the repository ${t.p.dir}: roleflow reads no role file from outside it; keep the role files in the repository\n`);
  });
});
