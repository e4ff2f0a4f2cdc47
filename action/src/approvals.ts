import { safeText } from '../../src/core/text/safe-text.js';
import { loadConfig } from '../../src/files/config-file.js';
import type { CommentTarget } from './github.js';
import { optionValue, type ActionInputs } from './inputs.js';
import type { Toolkit } from './toolkit.js';

/**
 * The `--allow` flags a plan, apply or promote step may pass: the `allow` input's (and `args`'),
 * only when a reviewer listed in the config's `policy.approvers` has approved the pull request —
 * this run's, or on a push the one that brought the commit — on its head commit, as GitHub says
 * (each reviewer's latest review): an approval of an earlier commit did not see the content that
 * runs. Otherwise none, with a line in the log saying why: the finding then refuses.
 */
export async function approvedAllowFlags(ctx: { kit: Toolkit; inputs: ActionInputs; pullRequest: (CommentTarget & { headSha?: string }) | undefined }): Promise<string[]> {
  const { kit, inputs } = ctx;
  if (inputs.allows.length === 0) return [];
  const given = inputs.allows.map((a) => `--allow ${a}`).join(', ');
  const refuse = (why: string): string[] => {
    kit.warning(`${given} not passed: ${why}. An --allow counts only when a reviewer in policy.approvers approved the pull request's head commit.`);
    return [];
  };
  const config = await loadConfig(inputs.workingDirectory, optionValue(inputs.args, '--config'), kit.env);
  const approvers = new Set(config.policy.approvers.map((a) => a.toLowerCase()));
  if (approvers.size === 0) return refuse('the config lists no policy.approvers');
  if (inputs.githubToken === '') return refuse('the github-token input is empty, so the reviews cannot be read');
  const repository = kit.env['GITHUB_REPOSITORY'];
  if (!repository) return refuse('GITHUB_REPOSITORY is not set');
  const { GitHubClient } = await import('./github.js');
  const client = new GitHubClient(kit.env['GITHUB_API_URL'] || 'https://api.github.com', inputs.githubToken, { info: (t) => kit.info(t), debug: (t) => kit.debug(t) });
  try {
    const sha = kit.env['GITHUB_SHA'];
    const pr = ctx.pullRequest;
    const numbers = pr ? [pr.issueNumber] : sha ? await client.pullRequestsOf(repository, sha) : [];
    if (numbers.length === 0) return refuse('no pull request brought this commit');
    const stale: string[] = [];
    for (const issueNumber of numbers) {
      // What was reviewed must be what runs: the event's head on a pull request, else GitHub's (at merge).
      const head = pr?.issueNumber === issueNumber && pr.headSha ? pr.headSha : await client.pullRequestHead({ repository, issueNumber });
      const approvals = [...(await client.latestReviews({ repository, issueNumber })).values()].filter((r) => r.state === 'APPROVED' && approvers.has(r.login.toLowerCase()));
      const by = approvals.find((r) => r.commitId === head);
      if (by) {
        kit.info(`${given}: pull request #${issueNumber} is approved at its head ${short(head)} by @${safeText(by.login)}, one of policy.approvers`);
        return inputs.allows.flatMap((a) => ['--allow', a]);
      }
      for (const r of approvals) stale.push(`@${safeText(r.login)} approved ${r.commitId ? short(r.commitId) : 'no named commit'}, not the head ${short(head)}`);
    }
    if (stale.length > 0) return refuse(`${stale.join('; ')}: approve again after the last push`);
    return refuse(`no reviewer in policy.approvers has approved pull request #${numbers.join(', #')}`);
  } catch (err) {
    return refuse(`the reviews could not be read (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    await client.close();
  }
}

/** A commit as a reader recognizes it: its first 7 characters, escaped (GitHub sent it). */
function short(sha: string): string {
  return safeText(sha.slice(0, 7));
}
