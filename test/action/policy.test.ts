import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, PR_NUMBER, roleFile } from './run-action.js';

const PUSHED_SHA = 'fedcba9876543210fedcba9876543210fedcba98';

const bed = actionTestbed('roleflow-action-policy-', async (workspace) => {
  await mkdir(join(workspace, 'roles'), { recursive: true });
  await writeFile(join(workspace, 'roles', 'agent.md'), roleFile('agent', 'Support', 'You help.'));
  await writeFile(join(workspace, 'roleflow.config.yaml'), 'policy:\n  plan:\n    - { action: create, level: error }\n  approvers: [octocat]\n');
});

describe('the Action: an --allow counts only with an approval by one of policy.approvers', () => {
  it('is not passed without one, nor with another reviewer\'s; is passed once an approver approved; lapses with a later change request', async () => {
    const unreviewed = await bed.run({ command: 'plan', allow: 'create:agent' });
    expect(unreviewed.outputs['exitcode']).toBe('4');
    expect(unreviewed.log).toContain('--allow create:agent not passed: no reviewer in policy.approvers has approved pull request #42');
    expect(unreviewed.summary).toContain('refused unless --allow create:agent@');

    bed.github.review(PR_NUMBER, 'someone-else', 'APPROVED');
    expect((await bed.run({ command: 'plan', allow: 'create:agent' })).outputs['exitcode']).toBe('4');

    bed.github.review(PR_NUMBER, 'OctoCat', 'APPROVED');
    const approved = await bed.run({ command: 'plan', args: '--allow create:agent' });
    expect(approved.outputs['exitcode'], approved.log).toBe('0');
    expect(approved.log).toContain('--allow create:agent: pull request #42 is approved by @octocat, one of policy.approvers');
    expect(approved.summary).toContain('allowed by --allow');

    // On push, the pull request that brought the commit is the one whose reviews count.
    bed.github.linkCommit(PUSHED_SHA, PR_NUMBER);
    const applied = await bed.run({ command: 'apply', allow: 'create:agent' }, { event: 'push' });
    expect(applied.outputs['exitcode'], applied.log).toBe('0');
    expect(applied.outputs['creates']).toBe('1');
    expect(bed.github.requests.some((r) => r.url.startsWith(`/repos/acme/roles/commits/${PUSHED_SHA}/pulls`))).toBe(true);

    bed.github.review(PR_NUMBER, 'octocat', 'CHANGES_REQUESTED');
    await writeFile(join(bed.workspace, 'roles', 'other.md'), roleFile('other', 'More', 'You too.'));
    const withdrawn = await bed.run({ command: 'plan', allow: 'create:other' });
    expect(withdrawn.outputs['exitcode']).toBe('4');
    expect(withdrawn.log).toContain('not passed: no reviewer in policy.approvers has approved');
  });
});
