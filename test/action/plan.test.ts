import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, GITHUB_TOKEN, PR_NUMBER, ROLEFLOW_TOKEN, roleFile, visibleLog, type ActionRun } from './run-action.js';

const MARKER = '<!-- roleflow:plan:local -->';

const runs: ActionRun[] = [];
const bed = actionTestbed('roleflow-action-plan-', async () => {
  await mkdir(join(bed.workspace, 'project', 'roles'), { recursive: true });
  await writeFile(join(bed.workspace, 'project', 'roles', 'support.md'), roleFile('support-agent', 'Tier-1 support', 'You are a support agent.'));
  await writeFile(join(bed.workspace, 'project', 'roles', 'triage.md'), roleFile('triage-agent', 'Triage', 'You sort tickets.'));
  // Others' comments fill the first page, so ours is only found by following the Link header.
  for (let i = 0; i < 120; i++) bed.github.seed(PR_NUMBER, `LGTM ${i}`);
  bed.github.seed(PR_NUMBER, `> ${MARKER}\n> quoting the bot`);
});

/** The Action on roleflow's project in `project/` of the repository. */
async function action(inputs: Record<string, string>, opts: { event?: 'pull_request' | 'push'; apiUrl?: string } = {}): Promise<ActionRun> {
  const run = await bed.run({ 'working-directory': 'project', ...inputs }, opts);
  runs.push(run);
  return run;
}

describe('the Action, command: plan, on a pull request', () => {
  it('creates the sticky comment on the first run and sets the outputs', async () => {
    const run = await action({ command: 'plan' });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '2', updates: '0', deletes: '0' });
    expect(existsSync(run.outputs['plan-file']!)).toBe(true);
    expect(JSON.parse(await readFile(run.outputs['plan-file']!, 'utf8'))).toMatchObject({ summary: { create: 2 } });

    const ours = bed.github.comments.filter((c) => c.createdBy === 'api');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body.startsWith(MARKER)).toBe(true);
    expect(ours[0]!.body).toContain('Plan: 2 to create, 0 to update, 0 to delete.');
    expect(ours[0]!.body).toContain('support-agent');
    expect(run.summary).toContain('Plan: 2 to create');
    // The plan's line is a notice at the top of the run; roleflow's own log is folded in a group.
    expect(run.log).toContain('::notice title=roleflow plan for local::Plan: 2 to create, 0 to update, 0 to delete.\n');
    expect(run.log).toMatch(/^::group::roleflow plan --out \S+roleflow-plan-local\.json --json\n::stop-commands::/m);
    expect(run.log).toContain('::endgroup::\n');
    expect(run.log).toMatch(/\+ create support-agent/);
  });

  it('keeps reading the plan when a secret is a short, ordinary word', async () => {
    // "summary" is also a key of the plan JSON: masking the JSON as text would break it.
    const run = await bed.run({ 'working-directory': 'project', command: 'plan', comment: 'false' }, { env: { ROLEFLOW_TOKEN_OTHER: 'summary' } });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '2' });
  });

  it('updates that same comment on the next run instead of adding one', async () => {
    const before = bed.github.comments.find((c) => c.createdBy === 'api')!;
    await writeFile(join(bed.workspace, 'project', 'roles', 'billing.md'), roleFile('billing-agent', 'Billing', 'You handle invoices.'));
    const run = await action({ command: 'plan' });
    expect(run.code, run.log).toBe(0);
    const ours = bed.github.comments.filter((c) => c.createdBy === 'api');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.id).toBe(before.id);
    expect(ours[0]!.body).toContain('Plan: 3 to create');
    // The comment quoting ours is someone else's: left alone.
    expect(bed.github.comments.filter((c) => c.createdBy === 'seed' && c.body.includes('quoting the bot'))).toHaveLength(1);
    expect(bed.github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(bed.github.requests.every((r) => r.authorized)).toBe(true);
  });

  it('never shows the GitHub token or the tenant token in the comment, summary, outputs or log', async () => {
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      expect(run.log).toContain(`::add-mask::${GITHUB_TOKEN}`);
      expect(run.log).toContain(`::add-mask::${ROLEFLOW_TOKEN}`);
      const everything = [visibleLog(run.log), run.summary, JSON.stringify(run.outputs), ...bed.github.comments.map((c) => c.body)].join('\n');
      // The distinctive parts, so an escaped form (markdown entities, URL encoding) is caught too.
      for (const secret of [GITHUB_TOKEN, ROLEFLOW_TOKEN, 'STANDINtoken', '9f8e7d6c5b4a']) expect(everything).not.toContain(secret);
    }
  });

  it('refuses role files holding the tokens (exit 1), annotated at their lines, the tokens never shown', async () => {
    const leaky = join(bed.workspace, 'project', 'roles', 'leaky.md');
    // Secrets inside the files themselves: a Role holding one is refused, and nothing repeats it.
    await writeFile(leaky, roleFile(`leaky-${ROLEFLOW_TOKEN}`, `uses ${GITHUB_TOKEN}`, `The key is ${ROLEFLOW_TOKEN}.`));
    try {
      const run = await action({ command: 'plan' });
      expect(run.outputs['exitcode']).toBe('1');
      expect(run.log).toMatch(/^::error title=roleflow%3A invalid file,file=project\/roles\/leaky\.md,line=5,col=12::secrets: content holds the value of ROLEFLOW_TOKEN/m);
      const everything = [visibleLog(run.log), run.summary, JSON.stringify(run.outputs), ...bed.github.comments.map((c) => c.body)].join('\n');
      for (const secret of [GITHUB_TOKEN, ROLEFLOW_TOKEN, 'STANDINtoken', '9f8e7d6c5b4a']) expect(everything).not.toContain(secret);
      expect(bed.github.comments.find((c) => c.createdBy === 'api')!.body).toContain('roles/leaky.md:5:12: secrets:');
    } finally {
      await rm(leaky);
    }
  });

  it('reports changes in the outputs without failing the step; with --detailed-exitcode, exit 2 fails it unless told otherwise', async () => {
    const drift = await action({ command: 'plan', args: '--detailed-exitcode', comment: 'false' });
    expect(drift.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(drift.code).toBe(1);
    expect(drift.log).toContain('::error::roleflow plan exited with code 2');

    const tolerated = await action({ command: 'plan', args: '--detailed-exitcode', 'fail-on-changes': 'false', comment: 'false' });
    expect(tolerated.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(tolerated.code).toBe(0);

    const asked = await action({ command: 'plan', 'fail-on-changes': 'true', comment: 'false' });
    expect(asked.outputs['exitcode']).toBe('2');
    expect(asked.code).toBe(1);
  });

  it('keeps the plan, its outputs and its summary when GitHub refuses (403) or fails (500), with one warning', async () => {
    const commentsBefore = JSON.stringify(bed.github.comments);
    for (const status of [403, 500]) {
      bed.github.failWith(status);
      try {
        const before = bed.github.requests.length;
        const run = await action({ command: 'plan' });
        // A refusal is final; a server error is tried twice more before giving up.
        expect(bed.github.requests.length - before).toBe(status === 403 ? 1 : 3);
        expect(run.code, run.log).toBe(0);
        expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '3' });
        expect(run.summary).toContain('Plan: 3 to create');
        const warnings = run.log.split('\n').filter((l) => l.startsWith('::warning'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain(`Could not comment on pull request #${PR_NUMBER}`);
        expect(warnings[0]).toContain(`HTTP ${status}`);
        expect(warnings[0]).toContain('The plan result is unaffected');
        expect(visibleLog(run.log)).not.toContain('STANDINtoken');
      } finally {
        bed.github.failWith(undefined);
      }
    }
    expect(JSON.stringify(bed.github.comments)).toBe(commentsBefore);
  });

  it('warns in one line when the GitHub API cannot be reached', async () => {
    const run = await action({ command: 'plan' }, { apiUrl: 'http://127.0.0.1:9' });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs['exitcode']).toBe('0');
    expect(run.log).toMatch(/^::warning::Could not comment on pull request #42: GET \S+: no answer from 127\.0\.0\.1:9/m);
  });

  it('does not comment outside pull requests', async () => {
    const requests = bed.github.requests.length;
    const run = await action({ command: 'plan' }, { event: 'push' });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs['creates']).toBe('3');
    expect(bed.github.requests.length).toBe(requests);
  });

  it('annotates invalid role files at their lines, fails the step, and says so in the comment', async () => {
    const bad = join(bed.workspace, 'project', 'roles', 'broken.md');
    await writeFile(bad, '---\nname: broken\ndescripton: typo\n---\nbody\n');
    try {
      const run = await action({ command: 'plan' });
      expect(run.code).toBe(1);
      expect(run.outputs['exitcode']).toBe('1');
      expect(run.outputs['plan-file']).toBeUndefined();
      expect(run.log).toMatch(/^::error title=roleflow%3A invalid file,file=project\/roles\/broken\.md,line=3,col=1::.*descripton/m);
      const ours = bed.github.comments.filter((c) => c.createdBy === 'api');
      expect(ours).toHaveLength(1);
      expect(ours[0]!.body).toContain('failed (exit code 1)');
      expect(ours[0]!.body).toContain('roles/broken.md:3:1');
      expect(run.summary).toContain('roles/broken.md:3:1');
    } finally {
      await rm(bad);
    }
  });

  it('rejects a bad input in one line, before running anything', async () => {
    const run = await action({ command: 'deploy' });
    expect(run.code).toBe(1);
    expect(run.log).toContain('::error::input "command" must be plan, apply, test, merge, promote, preview or drift, not "deploy"');
    expect(run.log).not.toMatch(/\n\s+at /);
  });
});
