import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every pull request's head until `push` moves it: the head the test runs' pull_request event names. */
export const FIRST_HEAD_SHA = 'abcdef0123456789abcdef0123456789abcdef01';

/** A comment as the stand-in keeps it. */
export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  /** Which request made it, in order: to tell an update from a second create. */
  createdBy: 'seed' | 'api';
}

/** An issue as the stand-in keeps it. */
export interface StoredIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
}

export interface GitHubStandin {
  /** `GITHUB_API_URL` for the Action. */
  url: string;
  comments: StoredComment[];
  /** The repository's issues (`seedIssue` adds one made by someone else). */
  issues: StoredIssue[];
  seedIssue(title: string, body: string, state?: 'open' | 'closed'): StoredIssue;
  /** Every request: method, path and query, and whether it carried the expected token. */
  requests: { method: string; url: string; authorized: boolean }[];
  /** From now on, answer every request with this status (undefined: behave). */
  failWith(status: number | undefined): void;
  /**
   * Answer the next `count` requests with `status`, GitHub's `message` and `headers` (a rate
   * limit's `retry-after`, `x-ratelimit-remaining`…), then behave again.
   */
  failNext(count: number, status: number, answer?: { message?: string; headers?: Record<string, string> }): void;
  /** From now on, the Link header's pages point at this origin instead of the stand-in's own. */
  pointPagesAt(origin: string): void;
  /** Add a comment made by someone else (to fill pages, or to quote ours). */
  seed(issue: number, body: string): void;
  /**
   * A review of pull request `pr` by `login` (`APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`,
   * `DISMISSED`), after the earlier ones, given on the pull request's head as it is now.
   */
  review(pr: number, login: string, state: string): void;
  /** A push to pull request `pr`: its head (what GET /pulls/{pr} answers) is now `sha`. */
  push(pr: number, sha: string): void;
  /** Commit `sha` was brought by pull request `pr` (what GET /commits/{sha}/pulls answers). */
  linkCommit(sha: string, pr: number): void;
  close(): Promise<void>;
}

/**
 * A tiny GitHub REST API on 127.0.0.1 for the Action's tests: issue comments of one repository,
 * in memory — list (paginated with a Link header, 30 a page unless `per_page`), create, update —
 * pull requests' reviews and heads, and its issues — list (`state`, paginated the same way; pull requests are not among them here),
 * create, update (title, body, state) —
 * behind a bearer token, and switches that make it refuse (403), fail (500) or rate-limit every
 * request or the next few.
 */
export async function startGitHubStandin(opts: { repository: string; token: string }): Promise<GitHubStandin> {
  const comments: StoredComment[] = [];
  const reviews: { pr: number; login: string; state: string; commit: string }[] = [];
  const heads = new Map<number, string>();
  const headOf = (pr: number): string => heads.get(pr) ?? FIRST_HEAD_SHA;
  const commitPulls = new Map<string, number[]>();
  const issues: StoredIssue[] = [];
  let nextIssue = 100;
  const requests: GitHubStandin['requests'] = [];
  let failure: number | undefined;
  let pagesAt: string | undefined;
  const nextFailures: { status: number; message: string; headers: Record<string, string> }[] = [];
  let nextId = 1000;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => send(res, 500, { message: String(err) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // GitHub takes the token as `Bearer` or `token` (what Octokit sends).
    const authorized = req.headers.authorization === `Bearer ${opts.token}` || req.headers.authorization === `token ${opts.token}`;
    requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, authorized });
    const body = await readBody(req);
    const next = nextFailures.shift();
    if (next !== undefined) return send(res, next.status, { message: next.message }, next.headers);
    if (failure !== undefined) return send(res, failure, { message: failure === 403 ? 'Resource not accessible by integration' : 'Server Error' });
    if (!authorized) return send(res, 401, { message: 'Bad credentials' });
    const base = `/repos/${opts.repository}`;
    const list = new RegExp(`^${base}/issues/(\\d+)/comments$`).exec(url.pathname);
    const one = new RegExp(`^${base}/issues/comments/(\\d+)$`).exec(url.pathname);
    const reviewsOf = new RegExp(`^${base}/pulls/(\\d+)/reviews$`).exec(url.pathname);
    const pull = new RegExp(`^${base}/pulls/(\\d+)$`).exec(url.pathname);
    const pullsOf = new RegExp(`^${base}/commits/([0-9a-f]+)/pulls$`).exec(url.pathname);
    if (reviewsOf && req.method === 'GET') {
      const pr = Number(reviewsOf[1]);
      return send(res, 200, reviews.filter((r) => r.pr === pr).map((r, i) => ({ id: i + 1, user: { login: r.login }, state: r.state, commit_id: r.commit })));
    }
    if (pull && req.method === 'GET') return send(res, 200, { number: Number(pull[1]), head: { sha: headOf(Number(pull[1])) } });
    if (pullsOf && req.method === 'GET') return send(res, 200, (commitPulls.get(pullsOf[1]!) ?? []).map((number) => ({ number, state: 'closed' })));
    if (list && req.method === 'GET') {
      const issue = Number(list[1]);
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = comments.filter((c) => c.issue === issue);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length) {
        const origin = pagesAt ?? address();
        headers['link'] = `<${origin}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next", <${origin}${url.pathname}?per_page=${perPage}&page=${Math.ceil(all.length / perPage)}>; rel="last"`;
      }
      return send(res, 200, slice.map(view), headers);
    }
    if (list && req.method === 'POST') {
      const text = textOf(body);
      if (text === undefined) return send(res, 422, { message: 'body is required' });
      if (text.length > 65_536) return send(res, 422, { message: 'Body is too long (maximum is 65536 characters)' });
      const comment: StoredComment = { id: nextId++, issue: Number(list[1]), body: text, createdBy: 'api' };
      comments.push(comment);
      return send(res, 201, view(comment));
    }
    const allIssues = new RegExp(`^${base}/issues$`).exec(url.pathname);
    const oneIssue = new RegExp(`^${base}/issues/(\\d+)$`).exec(url.pathname);
    if (allIssues && req.method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = issues.filter((i) => state === 'all' || i.state === state);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length) headers['link'] = `<${address()}${url.pathname}?state=${state}&per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return send(res, 200, all.slice((page - 1) * perPage, page * perPage).map(issueView), headers);
    }
    if (allIssues && req.method === 'POST') {
      const fields = fieldsOf(body);
      if (typeof fields.title !== 'string' || fields.title === '') return send(res, 422, { message: 'title is required' });
      if (typeof fields.body === 'string' && fields.body.length > 65_536) return send(res, 422, { message: 'Body is too long (maximum is 65536 characters)' });
      const issue: StoredIssue = { number: nextIssue++, title: fields.title, body: typeof fields.body === 'string' ? fields.body : '', state: 'open' };
      issues.push(issue);
      return send(res, 201, issueView(issue));
    }
    if (oneIssue && req.method === 'PATCH') {
      const issue = issues.find((i) => i.number === Number(oneIssue[1]));
      if (!issue) return send(res, 404, { message: 'Not Found' });
      const fields = fieldsOf(body);
      if (typeof fields.title === 'string') issue.title = fields.title;
      if (typeof fields.body === 'string') issue.body = fields.body;
      if (fields.state === 'open' || fields.state === 'closed') issue.state = fields.state;
      return send(res, 200, issueView(issue));
    }
    if (one && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(one[1]));
      if (!comment) return send(res, 404, { message: 'Not Found' });
      const text = textOf(body);
      if (text === undefined) return send(res, 422, { message: 'body is required' });
      if (text.length > 65_536) return send(res, 422, { message: 'Body is too long (maximum is 65536 characters)' });
      comment.body = text;
      return send(res, 200, view(comment));
    }
    return send(res, 404, { message: 'Not Found' });
  }

  function issueView(i: StoredIssue): object {
    return { number: i.number, title: i.title, body: i.body, state: i.state, html_url: `https://github.invalid/${opts.repository}/issues/${i.number}` };
  }

  function view(c: StoredComment): object {
    return { id: c.id, body: c.body, html_url: `https://github.invalid/${opts.repository}/pull/${c.issue}#issuecomment-${c.id}`, user: { login: c.createdBy === 'api' ? 'github-actions[bot]' : 'someone' } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = (): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: address(),
    comments,
    issues,
    seedIssue: (title, body, state = 'open') => {
      const issue: StoredIssue = { number: nextIssue++, title, body, state };
      issues.push(issue);
      return issue;
    },
    requests,
    failWith: (status) => {
      failure = status;
    },
    failNext: (count, status, answer = {}) => {
      for (let i = 0; i < count; i++) nextFailures.push({ status, message: answer.message ?? 'Server Error', headers: answer.headers ?? {} });
    },
    pointPagesAt: (origin) => {
      pagesAt = origin;
    },
    seed: (issue, body) => {
      comments.push({ id: nextId++, issue, body, createdBy: 'seed' });
    },
    review: (pr, login, state) => {
      reviews.push({ pr, login, state, commit: headOf(pr) });
    },
    push: (pr, sha) => {
      heads.set(pr, sha);
    },
    linkCommit: (sha, pr) => {
      commitPulls.set(sha, [...(commitPulls.get(sha) ?? []), pr]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(json));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function fieldsOf(body: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function textOf(body: string): string | undefined {
  try {
    const value = (JSON.parse(body) as { body?: unknown }).body;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
