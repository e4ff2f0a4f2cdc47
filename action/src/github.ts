import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Agent, fetch as undiciFetch } from 'undici';
import { runWasmWithBaselineCompiler } from '../../src/engine.js';

/** An issue or pull-request comment as the REST API returns it (the parts we use). */
export interface IssueComment {
  id: number;
  body?: string | null | undefined;
  html_url?: string | undefined;
}

/** An issue as the REST API returns it (the parts we use). */
export interface Issue {
  number: number;
  title: string;
  body?: string | null | undefined;
  state: string;
  html_url?: string | undefined;
}

/** A reviewer's latest review: its state and the commit it was given on (`commit_id`). */
export interface Review {
  login: string;
  state: string;
  commitId?: string;
}

/** Where the comments go: `owner/repo` and the pull request's number. */
export interface CommentTarget {
  repository: string;
  issueNumber: number;
}

/** A refusal or failure of the GitHub API, as one line that names the status and GitHub's reason. */
export class GitHubApiError extends Error {
  override readonly name = 'GitHubApiError';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** Where the client reports retries and its own diagnostics. */
export interface GitHubLog {
  info(text: string): void;
  debug(text: string): void;
}

/** Waits longer than this for a rate limit are not worth it for a comment: it is given up instead. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;
const MAX_RATE_LIMIT_RETRIES = 2;

const ActionOctokit = Octokit.plugin(paginateRest, retry, throttling);
type ActionOctokit = InstanceType<typeof ActionOctokit>;

/**
 * The REST calls a sticky comment needs, through Octokit at `GITHUB_API_URL` (GitHub Enterprise
 * and the tests' stand-in set it): `@octokit/plugin-retry` retries server errors and dropped
 * connections (twice, after 1 s then 4 s); `@octokit/plugin-throttling` spaces writes and, on a
 * primary or secondary rate limit, waits as GitHub asks when that is at most a minute, twice at
 * most. What still fails is one `GitHubApiError`: the comment is a courtesy, and a failure must
 * not hold up the step, whose own result stands.
 */
export class GitHubClient {
  private readonly agent = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 30_000, bodyTimeout: 30_000 });
  private readonly octokit: ActionOctokit;
  private readonly apiUrl: string;

  constructor(apiUrl: string, token: string, log: GitHubLog) {
    runWasmWithBaselineCompiler();
    this.apiUrl = apiUrl.replace(/\/+$/, '');
    const onLimit =
      (kind: string) =>
      (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number): boolean => {
        const what = `${options.method ?? 'GET'} ${pathOf(options.url ?? '')}`;
        const again = retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS;
        log.info(`GitHub's ${kind} rate limit on ${what}: ${again ? `retrying in ${retryAfter}s` : `not waiting ${retryAfter}s for it`}`);
        return again;
      };
    this.octokit = new ActionOctokit({
      auth: token,
      baseUrl: this.apiUrl,
      userAgent: 'roleflow-action',
      request: {
        // Each attempt, retries included, is in the debug log when it fails.
        fetch: async (url: string, init: Parameters<typeof undiciFetch>[1]) => {
          const what = `${init?.method ?? 'GET'} ${pathOf(url)}`;
          try {
            const response = await undiciFetch(url, { ...init, dispatcher: this.agent });
            if (!response.ok) log.debug(`${what}: HTTP ${response.status}`);
            return response;
          } catch (err) {
            log.debug(`${what}: ${describe(err, this.apiUrl)}`);
            throw err;
          }
        },
      },
      // 429 is a rate limit: the throttling plugin waits as GitHub's headers say, not on retry's own schedule.
      retry: { retries: 2, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      log: { debug: (t: string) => log.debug(t), info: (t: string) => log.debug(t), warn: (t: string) => log.info(t), error: (t: string) => log.info(t) },
      throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
    });
    this.octokit.hook.before('request', (options) => {
      // The token goes with every request: never to another host than the API's (a Link header's
      // next page is followed as given).
      const url = /^https?:/i.test(options.url) ? options.url : `${options.baseUrl}${options.url}`;
      if (!sameOrigin(url, this.apiUrl)) throw new GitHubApiError(`refusing to send the token to ${new URL(url).origin} (the API is ${new URL(this.apiUrl).origin})`, undefined);
      options.headers['x-github-api-version'] = '2022-11-28';
    });
  }

  /** The first comment of the issue that `matches`, reading its pages (100 a page) until it is found. */
  async findComment(target: CommentTarget, matches: (comment: IssueComment) => boolean): Promise<IssueComment | undefined> {
    return this.call('GET', `${this.repoPath(target)}/issues/${target.issueNumber}/comments`, async () => {
      const pages = this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...this.repo(target),
        issue_number: target.issueNumber,
        per_page: 100,
      });
      let count = 0;
      // A bound on pages, so a misbehaving server cannot keep us here.
      for await (const page of pages) {
        if (!Array.isArray(page.data)) throw new GitHubApiError('listing comments: the answer is not a list of comments', undefined);
        const found = (page.data as IssueComment[]).find(matches);
        if (found !== undefined || ++count >= 200) return found;
      }
      return undefined;
    });
  }

  async createComment(target: CommentTarget, body: string): Promise<IssueComment> {
    return this.call('POST', `${this.repoPath(target)}/issues/${target.issueNumber}/comments`, async () => {
      const { data } = await this.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...this.repo(target),
        issue_number: target.issueNumber,
        body,
      });
      return commentOf(data);
    });
  }

  async updateComment(target: CommentTarget, id: number, body: string): Promise<IssueComment> {
    return this.call('PATCH', `${this.repoPath(target)}/issues/comments/${id}`, async () => {
      const { data } = await this.octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...this.repo(target), comment_id: id, body });
      return commentOf(data);
    });
  }

  /**
   * Each reviewer's latest review of the pull request (`APPROVED`, `CHANGES_REQUESTED`,
   * `DISMISSED`…) and the commit it was given on, by login: the reviews come oldest first, so the
   * last one stands.
   */
  async latestReviews(target: CommentTarget): Promise<Map<string, Review>> {
    return this.call('GET', `${this.repoPath(target)}/pulls/${target.issueNumber}/reviews`, async () => {
      const latest = new Map<string, Review>();
      const pages = this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...this.repo(target), pull_number: target.issueNumber, per_page: 100 });
      let count = 0;
      for await (const page of pages) {
        if (!Array.isArray(page.data)) throw new GitHubApiError('listing reviews: the answer is not a list of reviews', undefined);
        for (const review of page.data as { user?: { login?: unknown } | null; state?: unknown; commit_id?: unknown }[]) {
          const login = review.user?.login;
          // A comment does not undo an approval; a new review that requests changes, or a dismissal, does.
          if (typeof login === 'string' && typeof review.state === 'string' && review.state !== 'COMMENTED') {
            latest.set(login.toLowerCase(), { login, state: review.state, ...(typeof review.commit_id === 'string' ? { commitId: review.commit_id } : {}) });
          }
        }
        if (++count >= 50) break;
      }
      return latest;
    });
  }

  /** The pull request's head commit (for a merged one, its head when it was merged). */
  async pullRequestHead(target: CommentTarget): Promise<string> {
    return this.call('GET', `${this.repoPath(target)}/pulls/${target.issueNumber}`, async () => {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...this.repo(target), pull_number: target.issueNumber });
      const sha = (data as { head?: { sha?: unknown } }).head?.sha;
      if (typeof sha !== 'string' || sha === '') throw new GitHubApiError('reading the pull request: the answer names no head commit', undefined);
      return sha;
    });
  }

  /** The pull requests a commit belongs to (how a push to the main branch finds the one it merged). */
  async pullRequestsOf(repository: string, sha: string): Promise<number[]> {
    const target = { repository, issueNumber: 0 };
    return this.call('GET', `${this.repoPath(target)}/commits/${sha}/pulls`, async () => {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', { ...this.repo(target), commit_sha: sha, per_page: 100 });
      if (!Array.isArray(data)) throw new GitHubApiError('listing pull requests: the answer is not a list', undefined);
      return (data as { number?: unknown }[]).flatMap((p) => (typeof p.number === 'number' ? [p.number] : []));
    });
  }

  /**
   * The first open issue of `repository` that `matches` (pull requests, which the API lists with
   * issues, are left out), reading its pages (100 a page, at most 50 pages) until it is found.
   */
  async findOpenIssue(repository: string, matches: (issue: Issue) => boolean): Promise<Issue | undefined> {
    const target = { repository, issueNumber: 0 };
    return this.call('GET', `${this.repoPath(target)}/issues`, async () => {
      const pages = this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues', { ...this.repo(target), state: 'open', per_page: 100 });
      let count = 0;
      for await (const page of pages) {
        if (!Array.isArray(page.data)) throw new GitHubApiError('listing issues: the answer is not a list of issues', undefined);
        const found = (page.data as (Issue & { pull_request?: unknown })[]).find((i) => i.pull_request === undefined && matches(issueOf(i)));
        if (found !== undefined) return issueOf(found);
        if (++count >= 50) return undefined;
      }
      return undefined;
    });
  }

  async createIssue(repository: string, title: string, body: string): Promise<Issue> {
    const target = { repository, issueNumber: 0 };
    return this.call('POST', `${this.repoPath(target)}/issues`, async () => {
      const { data } = await this.octokit.request('POST /repos/{owner}/{repo}/issues', { ...this.repo(target), title, body });
      return issueOf(data);
    });
  }

  /** Change an issue's title, body or state (`closed` closes it). */
  async updateIssue(repository: string, number: number, change: { title?: string; body?: string; state?: 'open' | 'closed' }): Promise<Issue> {
    const target = { repository, issueNumber: number };
    return this.call('PATCH', `${this.repoPath(target)}/issues/${number}`, async () => {
      const { data } = await this.octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...this.repo(target), issue_number: number, ...change });
      return issueOf(data);
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private repo(target: CommentTarget): { owner: string; repo: string } {
    const [owner = '', repo = ''] = target.repository.split('/');
    return { owner, repo };
  }

  private repoPath(target: CommentTarget): string {
    const { owner, repo } = this.repo(target);
    return `${new URL(this.apiUrl).pathname.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  /** `fn` with what Octokit throws once its retries are spent turned into one line. */
  private async call<T>(method: string, path: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof GitHubApiError) throw new GitHubApiError(`${method} ${path}: ${err.message}`, err.status);
      throw new GitHubApiError(`${method} ${path}: ${describe(err, this.apiUrl)}`, statusOf(err));
    }
  }
}

function issueOf(data: { number: number; title: string; body?: string | null | undefined; state: string; html_url?: string | undefined }): Issue {
  return { number: data.number, title: data.title, body: data.body, state: data.state, html_url: data.html_url };
}

function commentOf(data: { id: number | bigint; body?: string | undefined; html_url?: string | undefined }): IssueComment {
  return { id: Number(data.id), body: data.body, html_url: data.html_url };
}

/** `HTTP 403: Resource not accessible by integration`, or `no answer from HOST (ECONNREFUSED)`. */
function describe(err: unknown, apiUrl: string): string {
  const status = statusOf(err);
  if (status !== undefined) return `HTTP ${status}${reasonOf((err as { response?: { data?: unknown } }).response?.data)}`;
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause !== undefined && (cause as { code?: unknown }).code === undefined) cause = cause.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return `no answer from ${new URL(apiUrl).host} (${typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause)})`;
}

/** The HTTP status GitHub answered with; undefined when no answer came (Octokit then says 500). */
function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; response?: unknown };
  return typeof e.status === 'number' && e.response !== undefined ? e.status : undefined;
}

/** GitHub's `message` from an error body, cut to one short line. */
function reasonOf(data: unknown): string {
  const message = typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '' ? `: ${message.replace(/\s+/g, ' ').slice(0, 200)}` : '';
}

/** A request's path for the log: Octokit gives a route (`/repos/{owner}/…`) or a full URL (a next page). */
function pathOf(url: string): string {
  return /^https?:/i.test(url) ? new URL(url).pathname : url;
}

/** Whether `url` is on the API's origin (scheme, host and port). */
export function sameOrigin(url: string, apiUrl: string): boolean {
  return new URL(url, apiUrl).origin === new URL(apiUrl).origin;
}
