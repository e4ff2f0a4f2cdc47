import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_HEAD_SHA } from './github-standin.js';
import { actionTestbed, PR_NUMBER, roleFile, type ActionRun } from './run-action.js';

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
    expect(approved.log).toContain('--allow create:agent: pull request #42 is approved at its head abcdef0 by @OctoCat, one of policy.approvers');
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

describe('the Action: an approval counts only on the pull request\'s head commit', () => {
  const SECOND_HEAD = '1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const MERGED_PR = 43;
  const MERGE_SHA = '2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
  const heads = actionTestbed('roleflow-action-approval-head-', async (workspace) => {
    await mkdir(join(workspace, 'roles'), { recursive: true });
    await writeFile(join(workspace, 'roles', 'agent.md'), roleFile('agent', 'Support', 'You help.'));
    await writeFile(join(workspace, 'roleflow.config.yaml'), 'policy:\n  plan:\n    - { action: create, level: error }\n  approvers: [octocat]\n');
  });
  /** The warning lines about the `--allow` not passed: each one line of the log. */
  const refusals = (run: ActionRun): string[] => run.log.split('\n').filter((l) => l.includes('not passed:'));

  it('passes on the approved head; a push after the approval makes it lapse until approved again; a later change request withdraws it', async () => {
    heads.github.review(PR_NUMBER, 'octocat', 'APPROVED');
    const onHead = await heads.run({ command: 'plan', allow: 'create:agent' });
    expect(onHead.outputs['exitcode'], onHead.log).toBe('0');
    expect(onHead.log).toContain(`pull request #${PR_NUMBER} is approved at its head ${FIRST_HEAD_SHA.slice(0, 7)} by @octocat`);

    // The author pushes again: the approval was of the commit before.
    heads.github.push(PR_NUMBER, SECOND_HEAD);
    await writeFile(join(heads.workspace, 'roles', 'agent.md'), roleFile('agent', 'Support', 'You help. And now you also do what nobody approved.'));
    const pushed = await heads.run({ command: 'plan', allow: 'create:agent' }, { headSha: SECOND_HEAD });
    expect(pushed.outputs['exitcode']).toBe('4');
    expect(refusals(pushed)).toHaveLength(1);
    expect(refusals(pushed)[0]).toContain(`--allow create:agent not passed: @octocat approved ${FIRST_HEAD_SHA.slice(0, 7)}, not the head 1111111: approve again after the last push`);

    heads.github.review(PR_NUMBER, 'octocat', 'APPROVED');
    const again = await heads.run({ command: 'plan', allow: 'create:agent' }, { headSha: SECOND_HEAD });
    expect(again.outputs['exitcode'], again.log).toBe('0');
    expect(again.log).toContain('is approved at its head 1111111 by @octocat');

    heads.github.review(PR_NUMBER, 'octocat', 'COMMENTED');
    expect((await heads.run({ command: 'plan', allow: 'create:agent' }, { headSha: SECOND_HEAD })).outputs['exitcode']).toBe('0');
    heads.github.review(PR_NUMBER, 'octocat', 'CHANGES_REQUESTED');
    const withdrawn = await heads.run({ command: 'plan', allow: 'create:agent' }, { headSha: SECOND_HEAD });
    expect(withdrawn.outputs['exitcode']).toBe('4');
    expect(refusals(withdrawn)[0]).toContain(`no reviewer in policy.approvers has approved pull request #${PR_NUMBER}`);
  });

  it('on the push that merged it, checks the merged pull request\'s head, read from GitHub (its sha escaped in the warning)', async () => {
    heads.github.linkCommit(MERGE_SHA, MERGED_PR);
    heads.github.review(MERGED_PR, 'octocat', 'APPROVED');
    heads.github.push(MERGED_PR, '\u001b[31m' + 'c'.repeat(35));
    const stale = await heads.run({ command: 'apply', allow: 'create:agent' }, { event: 'push', env: { GITHUB_SHA: MERGE_SHA } });
    expect(stale.outputs['exitcode']).toBe('4');
    expect(stale.outputs['creates']).toBe('0');
    expect(refusals(stale)).toHaveLength(1);
    expect(refusals(stale)[0]).toContain(`@octocat approved ${FIRST_HEAD_SHA.slice(0, 7)}, not the head \\u001b[31mcc: approve again after the last push`);
    expect(stale.log).not.toContain('\u001b');
    expect(heads.github.requests.some((r) => r.method === 'GET' && r.url === `/repos/acme/roles/pulls/${MERGED_PR}`)).toBe(true);

    heads.github.push(MERGED_PR, SECOND_HEAD);
    heads.github.review(MERGED_PR, 'octocat', 'APPROVED');
    const merged = await heads.run({ command: 'apply', allow: 'create:agent' }, { event: 'push', env: { GITHUB_SHA: MERGE_SHA } });
    expect(merged.outputs['exitcode'], merged.log).toBe('0');
    expect(merged.outputs['creates']).toBe('1');
    expect(merged.log).toContain(`pull request #${MERGED_PR} is approved at its head 1111111 by @octocat`);
  });
});
