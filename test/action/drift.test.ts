import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { call } from '../helpers/emulator.js';
import { actionTestbed, roleFile, ROLEFLOW_TOKEN, type ActionRun } from './run-action.js';

let em: RunningEmulator;
beforeAll(async () => {
  em = await startEmulator({ token: ROLEFLOW_TOKEN });
});
afterAll(async () => {
  await em.close();
});

const bed = actionTestbed('roleflow-action-drift-', async (workspace) => {
  await mkdir(join(workspace, 'roles'), { recursive: true });
  await writeFile(join(workspace, 'roleflow.config.yaml'), `tenants:\n  prod: { base_url: "${em.baseUrl}" }\ndefault_tenant: prod\n`);
  await writeFile(join(workspace, 'roles', 'a.md'), roleFile('a', 'A', 'You are A.'));
  await writeFile(join(workspace, 'roles', 'b.md'), roleFile('b', 'B', 'You are B.'));
});

const drift = (): Promise<ActionRun> => bed.run({ command: 'drift', args: '--detailed-exitcode', notify: 'issue' }, { event: 'push' });
const handEdit = (name: string, content: string) => call(em, 'POST', '/admin/roles/update', { body: { id: em.roles().find((r) => r.name === name)!.id, name, description: name.toUpperCase(), content } });

describe('the Action, command: drift', () => {
  it('opens one issue per tenant on drift, updates it, and closes it once nothing drifted', async () => {
    expect((await bed.run({ command: 'apply' }, { event: 'push' })).code).toBe(0);
    const clean = await drift();
    expect(clean.code, clean.log).toBe(0);
    expect(clean.outputs).toMatchObject({ exitcode: '0', drifted: '0', pending: '0' });
    expect(bed.github.issues).toEqual([]);

    await handEdit('a', 'edited in the UI');
    const drifted = await drift();
    expect(drifted.code).toBe(1);
    expect(drifted.outputs).toMatchObject({ exitcode: '5', drifted: '1', pending: '0' });
    expect(drifted.log).toContain('::error::roleflow drift exited with code 5');
    expect(drifted.log).toContain('  ! drifted         a: changed on the tenant since roleflow last applied it');
    expect(drifted.summary).toContain('| <code>a</code> | drifted |');
    expect(bed.github.issues).toHaveLength(1);
    const [issue] = bed.github.issues;
    expect(issue).toMatchObject({ title: 'roleflow drift: tenant prod', state: 'open' });
    expect(issue!.body.startsWith('<!-- roleflow:drift:prod -->\n')).toBe(true);
    expect(drifted.log).toContain(`Opened the drift issue of tenant prod: #${issue!.number}`);

    // Someone else's issue that quotes ours is not ours.
    bed.github.seedIssue('about drift', `> <!-- roleflow:drift:prod -->\n> quoted`);
    await handEdit('b', 'also edited');
    const more = await drift();
    expect(more.outputs).toMatchObject({ exitcode: '5', drifted: '2' });
    expect(bed.github.issues.filter((i) => i.body.startsWith('<!-- roleflow:drift:prod -->'))).toHaveLength(1);
    expect(issue!.body).toContain('<code>b</code>');
    expect(more.log).toContain(`Updated the drift issue of tenant prod: #${issue!.number}`);

    // The tenant put back as the files say: the issue is closed.
    expect((await bed.run({ command: 'apply' }, { event: 'push' })).code).toBe(0);
    const settled = await drift();
    expect(settled.code, settled.log).toBe(0);
    expect(issue).toMatchObject({ state: 'closed' });
    expect(issue!.body).toContain('this issue is closed');
    expect(settled.log).toContain(`Closed the drift issue of tenant prod: #${issue!.number}`);
    expect(settled.outputs['drift-file']).toMatch(/roleflow-drift-prod\.json$/);
  });

  it('warns when GitHub refuses the issue, and the drift result stands', async () => {
    await handEdit('a', 'edited again');
    bed.github.failWith(403);
    const refused = await drift();
    bed.github.failWith(undefined);
    expect(refused.outputs).toMatchObject({ exitcode: '5', drifted: '1' });
    expect(refused.log).toContain('::warning::Could not update the drift issue of tenant prod');
    expect(refused.log).toContain('(the job needs `permissions: issues: write`)');
  });

  it('refuses notify with another command', async () => {
    const run = await bed.run({ command: 'plan', notify: 'issue' }, { event: 'push' });
    expect(run.code).toBe(1);
    expect(run.log).toContain('::error::input "notify" is for command: drift, not plan');
  });
});
