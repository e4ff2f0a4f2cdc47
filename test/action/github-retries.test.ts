import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, PR_NUMBER, roleFile, type ActionRun } from './run-action.js';

/**
 * The sticky comment through a GitHub API that fails for a moment: a server error, a secondary or
 * primary rate limit. The Action retries as GitHub asks and the comment lands; a limit it will not
 * wait for is one warning, and the step's result stands.
 */
const bed = actionTestbed('roleflow-action-retries-', async (workspace) => {
  await mkdir(join(workspace, 'project', 'roles'), { recursive: true });
  await writeFile(join(workspace, 'project', 'roles', 'support.md'), roleFile('support-agent', 'Tier-1 support', 'You are a support agent.'));
});

const COMMENTS_PATH = `/repos/acme/roles/issues/${PR_NUMBER}/comments`;

/** A plan step on the pull request; how many requests it made, by method. */
async function plan(): Promise<{ run: ActionRun; gets: number; posts: number; patches: number }> {
  const before = bed.github.requests.length;
  const run = await bed.run({ command: 'plan', 'working-directory': 'project' });
  const made = bed.github.requests.slice(before);
  const count = (method: string): number => made.filter((r) => r.method === method).length;
  return { run, gets: count('GET'), posts: count('POST'), patches: count('PATCH') };
}

const warnings = (run: ActionRun): string[] => run.log.split('\n').filter((l) => l.startsWith('::warning'));

describe('the Action, when GitHub fails for a moment', () => {
  it('retries a server error (502) and comments', async () => {
    bed.github.failNext(1, 502, { message: 'Bad Gateway' });
    const { run, gets, posts } = await plan();
    // Shown when the job is re-run with debug logging.
    expect(run.log).toContain(`::debug::GET ${COMMENTS_PATH}: HTTP 502\n`);
    expect(run.code, run.log).toBe(0);
    expect(warnings(run)).toEqual([]);
    expect({ gets, posts }).toEqual({ gets: 2, posts: 1 });
    expect(bed.github.comments.filter((c) => c.createdBy === 'api')).toHaveLength(1);
    expect(bed.github.requests.every((r) => r.authorized)).toBe(true);
  });

  it('waits out a secondary rate limit (403 with retry-after) and updates the comment', async () => {
    bed.github.failNext(1, 403, { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', headers: { 'retry-after': '1' } });
    const { run, gets, patches } = await plan();
    expect(run.code, run.log).toBe(0);
    expect(warnings(run)).toEqual([]);
    expect(run.log).toContain(`GitHub's secondary rate limit on GET ${COMMENTS_PATH}: retrying in 1s`);
    expect({ gets, patches }).toEqual({ gets: 2, patches: 1 });
    expect(bed.github.comments.filter((c) => c.createdBy === 'api')).toHaveLength(1);
  });

  it('waits out a primary rate limit (429, no requests left until the reset) and comments', async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 1);
    bed.github.failNext(1, 429, { message: 'API rate limit exceeded', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
    const { run, gets, patches } = await plan();
    expect(run.code, run.log).toBe(0);
    expect(warnings(run)).toEqual([]);
    expect(run.log).toMatch(new RegExp(`GitHub's primary rate limit on GET ${COMMENTS_PATH}: retrying in \\ds`));
    expect({ gets, patches }).toEqual({ gets: 2, patches: 1 });
  });

  it('does not wait an hour for a rate limit: one warning, the plan and its outputs stand', async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 3600);
    bed.github.failNext(1, 403, { message: 'API rate limit exceeded for installation', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
    const { run, gets, patches } = await plan();
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '1' });
    expect(run.log).toMatch(new RegExp(`GitHub's primary rate limit on GET ${COMMENTS_PATH}: not waiting \\d+s for it`));
    expect(warnings(run)).toHaveLength(1);
    expect(warnings(run)[0]).toContain(`Could not comment on pull request #${PR_NUMBER}: GET ${COMMENTS_PATH}: HTTP 403: API rate limit exceeded for installation`);
    expect(run.log).not.toMatch(/^::error/m);
    expect({ gets, patches }).toEqual({ gets: 1, patches: 0 });
  });

  it('never follows a next page to another host with the token: one warning instead', async () => {
    // Others' comments fill the first page, so the search needs the second.
    bed.github.comments.splice(0);
    for (let i = 0; i < 101; i++) bed.github.seed(PR_NUMBER, `LGTM ${i}`);
    bed.github.pointPagesAt('http://127.0.0.2:9');
    const { run, gets, posts } = await plan();
    expect(run.code, run.log).toBe(0);
    expect(warnings(run)).toHaveLength(1);
    expect(warnings(run)[0]).toContain(`GET ${COMMENTS_PATH}: refusing to send the token to http://127.0.0.2:9`);
    expect({ gets, posts }).toEqual({ gets: 1, posts: 0 });
  });
});
