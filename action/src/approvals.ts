import { loadConfig } from '../../src/files/config-file.js';
import { GitHubClient, type CommentTarget } from './github.js';
import { optionValue, type ActionInputs } from './inputs.js';
import type { Toolkit } from './toolkit.js';

/**
 * The `--allow` flags a plan, apply or promote step may pass: the `allow` input's (and `args`'),
 * only when a reviewer listed in the config's `policy.approvers` has approved the pull request —
 * this run's, or on a push the one that brought the commit — as GitHub says (each reviewer's
 * latest review). Otherwise none, with a line in the log saying why: the finding then refuses.
 */
export async function approvedAllowFlags(ctx: { kit: Toolkit; inputs: ActionInputs; pullRequest: CommentTarget | undefined }): Promise<string[]> {
  const { kit, inputs } = ctx;
  if (inputs.allows.length === 0) return [];
  const given = inputs.allows.map((a) => `--allow ${a}`).join(', ');
  const refuse = (why: string): string[] => {
    kit.warning(`${given} not passed: ${why}. An --allow counts only when a reviewer in policy.approvers approved the pull request.`);
    return [];
  };
  const config = await loadConfig(inputs.workingDirectory, optionValue(inputs.args, '--config'), kit.env);
  const approvers = new Set(config.policy.approvers.map((a) => a.toLowerCase()));
  if (approvers.size === 0) return refuse('the config lists no policy.approvers');
  if (inputs.githubToken === '') return refuse('the github-token input is empty, so the reviews cannot be read');
  const repository = kit.env['GITHUB_REPOSITORY'];
  if (!repository) return refuse('GITHUB_REPOSITORY is not set');
  const client = new GitHubClient(kit.env['GITHUB_API_URL'] || 'https://api.github.com', inputs.githubToken, { info: (t) => kit.info(t), debug: (t) => kit.debug(t) });
  try {
    const sha = kit.env['GITHUB_SHA'];
    const numbers = ctx.pullRequest ? [ctx.pullRequest.issueNumber] : sha ? await client.pullRequestsOf(repository, sha) : [];
    if (numbers.length === 0) return refuse('no pull request brought this commit');
    for (const issueNumber of numbers) {
      const reviews = await client.latestReviews({ repository, issueNumber });
      const by = [...reviews].find(([login, state]) => state === 'APPROVED' && approvers.has(login));
      if (by) {
        kit.info(`${given}: pull request #${issueNumber} is approved by @${by[0]}, one of policy.approvers`);
        return inputs.allows.flatMap((a) => ['--allow', a]);
      }
    }
    return refuse(`no reviewer in policy.approvers has approved pull request #${numbers.join(', #')}`);
  } catch (err) {
    return refuse(`the reviews could not be read (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    await client.close();
  }
}
