import { Agent, request } from 'undici';

/** An issue or pull-request comment as the REST API returns it (the parts we use). */
export interface IssueComment {
  id: number;
  body?: string | null;
  html_url?: string;
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

/**
 * The three REST calls a sticky comment needs, over undici, at `GITHUB_API_URL` (GitHub
 * Enterprise and the tests' stand-in set it). No retries: the comment is a courtesy, and a
 * failure must not hold up the step, whose own result stands.
 */
export class GitHubClient {
  private readonly agent = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 30_000, bodyTimeout: 30_000 });
  private readonly apiUrl: string;

  constructor(
    apiUrl: string,
    private readonly token: string,
  ) {
    this.apiUrl = apiUrl.replace(/\/+$/, '');
  }

  /** Every comment of the issue, following the `Link: rel="next"` pages. */
  async listComments(target: CommentTarget): Promise<IssueComment[]> {
    const all: IssueComment[] = [];
    let url: string | undefined = `${this.repoUrl(target)}/issues/${target.issueNumber}/comments?per_page=100`;
    // A bound on pages, so a misbehaving server cannot keep us here.
    for (let page = 0; url !== undefined && page < 200; page++) {
      const { body, link } = await this.send('GET', url);
      if (!Array.isArray(body)) throw new GitHubApiError('listing comments: the answer is not a list of comments', undefined);
      all.push(...(body as IssueComment[]));
      url = nextPage(link, this.apiUrl);
    }
    return all;
  }

  async createComment(target: CommentTarget, body: string): Promise<IssueComment> {
    const { body: created } = await this.send('POST', `${this.repoUrl(target)}/issues/${target.issueNumber}/comments`, { body });
    return created as IssueComment;
  }

  async updateComment(target: CommentTarget, id: number, body: string): Promise<IssueComment> {
    const { body: updated } = await this.send('PATCH', `${this.repoUrl(target)}/issues/comments/${id}`, { body });
    return updated as IssueComment;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private repoUrl(target: CommentTarget): string {
    const [owner = '', repo = ''] = target.repository.split('/');
    return `${this.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  private async send(method: 'GET' | 'POST' | 'PATCH', url: string, json?: unknown): Promise<{ body: unknown; link: string | undefined }> {
    const what = `${method} ${new URL(url).pathname}`;
    let response;
    try {
      response = await request(url, {
        method,
        dispatcher: this.agent,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.token}`,
          'user-agent': 'roleflow-action',
          'x-github-api-version': '2022-11-28',
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new GitHubApiError(`${what}: no answer from ${new URL(url).host} (${code ?? (err as Error).message})`, undefined);
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new GitHubApiError(`${what}: HTTP ${response.statusCode}${reasonOf(text)}`, response.statusCode);
    }
    const link = response.headers['link'];
    try {
      return { body: text === '' ? undefined : (JSON.parse(text) as unknown), link: Array.isArray(link) ? link.join(', ') : link };
    } catch {
      throw new GitHubApiError(`${what}: the answer is not JSON`, response.statusCode);
    }
  }
}

/** GitHub's `message` from an error body, cut to one short line. */
function reasonOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return `: ${message.replace(/\s+/g, ' ').slice(0, 200)}`;
  } catch {
    // not JSON: the status says enough
  }
  return '';
}

/** The `rel="next"` URL of a Link header, only when it stays on the API's origin (the token goes with it). */
export function nextPage(link: string | undefined, apiUrl: string): string | undefined {
  if (link === undefined) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match?.[1] !== undefined) {
      const next = new URL(match[1], apiUrl);
      return next.origin === new URL(apiUrl).origin ? next.toString() : undefined;
    }
  }
  return undefined;
}
