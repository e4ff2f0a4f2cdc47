import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { approvedAllowFlags } from './approvals.js';
import type { CommentTarget } from './github.js';
import type { ActionInputs } from './inputs.js';
import { runRoleflow, type RoleflowRun } from './roleflow.js';
import { commentMarker, upsertStickyComment } from './sticky-comment.js';
import { isSeveral, tenantFlags } from './tenants/tenant-inputs.js';
import type { Toolkit } from './toolkit.js';

/** What every command of the Action works with. */
export interface StepContext {
  kit: Toolkit;
  inputs: ActionInputs;
  /**
   * The tenant's name as roleflow resolves it (input, config's default_tenant, else local); for
   * several tenants, what names them together (`severalTenantsName`); for promote, the target.
   */
  tenant: string;
  /** The repository root: annotation paths are relative to it. */
  workspace: string;
  /** Where the plan and the report are written (`$RUNNER_TEMP`). */
  tempDir: string;
  pullRequest: (CommentTarget & { headSha?: string; baseSha?: string }) | undefined;
}

/** How the step ends: `failure` fails it with that one line; the outputs are set either way. */
export interface StepOutcome {
  failure?: string;
}

/**
 * roleflow run in-process in the working directory with `argv`, then `--tenant`/`--all-tenants`
 * (for commands that talk to tenants) and the `args` input; stderr (and stdout when asked) go to the log, with
 * workflow commands stopped.
 */
export async function roleflow(
  ctx: StepContext,
  argv: string[],
  opts: { streamStdout: boolean; tenantCommand: boolean; /** false: no tenant options (a saved plan of several names its own). */ selectTenants?: boolean },
): Promise<RoleflowRun> {
  const tenant = opts.tenantCommand && opts.selectTenants !== false ? tenantFlags(ctx.inputs.tenants) : [];
  // An override of plan policy counts only once an approver approved the pull request.
  const allows = ['plan', 'apply', 'promote'].includes(argv[0]!) ? await approvedAllowFlags(ctx) : [];
  const full = [...argv, ...tenant, ...allows, ...(opts.tenantCommand ? ctx.inputs.args : [])];
  const command = `roleflow ${full.map(quoteArg).join(' ')}`;
  // Folded in the log; what roleflow prints quotes test names, tenant messages and Role names: never commands.
  return ctx.kit.group(command, () =>
    ctx.kit.untrusted(() =>
      runRoleflow(full, {
        cwd: ctx.inputs.workingDirectory,
        env: ctx.kit.env,
        onStderrLine: (line) => ctx.kit.info(line),
        ...(opts.streamStdout ? { onStdoutLine: (line: string) => ctx.kit.info(line) } : {}),
      }),
    ),
  );
}

/**
 * Create or update the pull request's sticky comment for this command and tenant. Only on
 * pull-request events and with `comment: true`. A refusing or failing GitHub API (after the
 * client's retries) is one warning: the command's own result, outputs and summary stand.
 */
export async function postComment(ctx: StepContext, command: string, body: (marker: string) => string): Promise<void> {
  const pr = ctx.pullRequest;
  if (!ctx.inputs.comment || pr === undefined) return;
  if (ctx.inputs.githubToken === '') {
    ctx.kit.warning('No pull-request comment: the github-token input is empty.');
    return;
  }
  // Octokit and its HTTP client are set up only for a step that comments: a push event's never does.
  const { GitHubApiError, GitHubClient } = await import('./github.js');
  const apiUrl = ctx.kit.env['GITHUB_API_URL'] || 'https://api.github.com';
  const client = new GitHubClient(apiUrl, ctx.inputs.githubToken, { info: (t) => ctx.kit.info(t), debug: (t) => ctx.kit.debug(t) });
  const marker = commentMarker(command, isSeveral(ctx.inputs.tenants) ? ctx.inputs.tenants : { names: [ctx.tenant] });
  try {
    const result = await upsertStickyComment(client, pr, marker, body(marker));
    ctx.kit.info(`${result.action === 'created' ? 'Commented on' : 'Updated the comment on'} pull request #${pr.issueNumber}${result.comment.html_url ? `: ${result.comment.html_url}` : ''}`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const hint =
      err instanceof GitHubApiError && (err.status === 403 || err.status === 404)
        ? ' (the job needs `permissions: pull-requests: write`; pull requests from forks get a read-only token)'
        : '';
    ctx.kit.warning(`Could not comment on pull request #${pr.issueNumber}: ${message}${hint}. The ${command} result is unaffected.`);
  } finally {
    await client.close();
  }
}

/** `$RUNNER_TEMP/roleflow-plan-<tenant>.json`: one per tenant, so several steps of a job can plan several tenants. */
export function tempFileFor(ctx: StepContext, kind: 'plan' | 'report' | 'preview' | 'drift'): string {
  return join(ctx.tempDir, `roleflow-${kind}-${ctx.tenant.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** A small line under each comment: which commit and which run wrote it. */
export function commentFooter(ctx: StepContext, command: string): string {
  const env = ctx.kit.env;
  const sha = ctx.pullRequest?.headSha ?? env['GITHUB_SHA'];
  const server = env['GITHUB_SERVER_URL'] || 'https://github.com';
  const run =
    env['GITHUB_REPOSITORY'] && env['GITHUB_RUN_ID'] ? ` · [workflow run](${server}/${env['GITHUB_REPOSITORY']}/actions/runs/${env['GITHUB_RUN_ID']})` : '';
  return `<sub>\`roleflow ${command}\`${sha ? ` for ${sha.slice(0, 7)}` : ''}${run}</sub>\n`;
}

/** A path from a `with:` input, which is relative to the working directory unless absolute. */
export function inWorkingDirectory(ctx: StepContext, path: string): string {
  return isAbsolute(path) ? path : resolve(ctx.inputs.workingDirectory, path);
}

/** A file named by roleflow (relative to the working directory) as the repository path annotations need. */
export function repoPath(ctx: StepContext, file: string): string {
  const abs = isAbsolute(file) ? file : resolve(ctx.inputs.workingDirectory, file);
  const rel = relative(ctx.workspace, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel.split(sep).join('/');
}

/** The exit code as the `exitcode` output, and a failure line when it is one the step fails on. */
export function exitOutcome(ctx: StepContext, command: string, code: number, failsOn: readonly number[]): StepOutcome {
  ctx.kit.setOutput('exitcode', code);
  return failsOn.includes(code) || ![0, 1, 2, 3, 4, 5].includes(code) ? { failure: `roleflow ${command} exited with code ${code}` } : {};
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
