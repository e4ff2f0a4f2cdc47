import { readFileSync } from 'node:fs';
import type { CommentTarget, GitHubClient, IssueComment } from './github.js';

/**
 * The pull request the workflow runs for, from the event file the runner writes; undefined for
 * any other event (push, schedule, workflow_dispatch), where nothing is commented.
 */
export function pullRequestOf(env: Record<string, string | undefined>): (CommentTarget & { headSha?: string; baseSha?: string }) | undefined {
  const event = env['GITHUB_EVENT_NAME'];
  if (event !== 'pull_request' && event !== 'pull_request_target') return undefined;
  const repository = env['GITHUB_REPOSITORY'];
  const path = env['GITHUB_EVENT_PATH'];
  if (!repository || !path) return undefined;
  let payload: { number?: unknown; pull_request?: { number?: unknown; head?: { sha?: unknown }; base?: { sha?: unknown } } };
  try {
    payload = JSON.parse(readFileSync(path, 'utf8')) as typeof payload;
  } catch {
    return undefined;
  }
  const number = payload.pull_request?.number ?? payload.number;
  if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0) return undefined;
  // GITHUB_SHA of a pull-request run is a merge commit nobody pushed; the head is what was reviewed.
  const sha = payload.pull_request?.head?.sha;
  const base = payload.pull_request?.base?.sha;
  return { repository, issueNumber: number, ...(typeof sha === 'string' ? { headSha: sha } : {}), ...(typeof base === 'string' && /^[0-9a-f]{40,64}$/.test(base) ? { baseSha: base } : {}) };
}

/**
 * `roleflow:plan:staging`, `roleflow:plan:staging,production`, `roleflow:apply:all;eu%2Fwest`: one
 * sticky comment per command and set of tenants, told apart for any names. Each name is
 * percent-encoded (which leaves none holding `,`, `;`, `>` or a space) and the names are joined
 * by `,`; `all;` before them stands for --all-tenants. Simple names read as themselves.
 */
export function commentMarker(command: string, tenants: { names: readonly string[]; all?: boolean }): string {
  // An empty name (no real tenant's) is `%`, which no encoded name is: `[]` and `['']` differ.
  return `roleflow:${command}:${tenants.all ? 'all;' : ''}${tenants.names.map((name) => encodeURIComponent(name) || '%').join(',')}`;
}

/** The hidden first line that identifies the comment. */
export function markerLine(marker: string): string {
  return `<!-- ${marker} -->`;
}

export interface StickyResult {
  action: 'created' | 'updated';
  comment: IssueComment;
}

/**
 * Update the comment that starts with the marker line, else create one, so each push to the pull
 * request refreshes one comment instead of adding another. Only a comment that starts with the
 * marker counts: someone quoting ours carries the marker further in, after `> `.
 */
export async function upsertStickyComment(client: GitHubClient, target: CommentTarget, marker: string, body: string): Promise<StickyResult> {
  const line = markerLine(marker);
  const text = body.startsWith(line) ? body : `${line}\n${body}`;
  const existing = await client.findComment(target, (c) => typeof c.body === 'string' && c.body.trimStart().startsWith(line));
  if (existing !== undefined) return { action: 'updated', comment: await client.updateComment(target, existing.id, text) };
  return { action: 'created', comment: await client.createComment(target, text) };
}
