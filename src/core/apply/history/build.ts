import { HISTORY_ROLE } from '../../roles/reserved.js';
import type { ApplyOutcome } from '../result.js';
import type { Role } from '../../model.js';
import { globMatcher } from '../../plan/matching.js';
import { planDigest } from '../../plan/render-json.js';
import type { Plan, PlanChange } from '../../plan/types.js';
import { changeOutcome, HISTORY_FORMAT_VERSION, roleSha, type JournalChange, type JournalCommand, type JournalRecord, type RoleContent } from './record.js';

/** Who applied, from where: the parts of a record that do not come from the plan. */
export interface JournalMeta {
  actor: string;
  commit: string | null;
  ref: string | null;
  run_url: string | null;
  /** The role files or config applied differ from `commit`. */
  dirty: boolean;
}

/** Everything a record of one apply is made from. */
export interface JournalDraft {
  id: string;
  /** ISO. */
  time: string;
  meta: JournalMeta;
  command: JournalCommand;
  plan: Plan;
  /** The tenant's Roles as listed for the plan (or just before the apply, for a saved plan). */
  remote: readonly Role[];
  /** The journal's records so far, oldest first. */
  previous: readonly JournalRecord[];
  rollbackOf?: string;
  preview?: boolean;
  /** Whether a text holds a secret (a token, a key): such content is never kept. */
  holdsSecret?: (text: string) => boolean;
  /** A name with every secret in it masked (`***`): a Role on the tenant may be named with one, and the journal is a file. */
  maskSecrets?: (text: string) => string;
}

/** The `started` line: every change `not_started`, and the content roleflow may need to put back. */
export function startedRecord(draft: JournalDraft): JournalRecord {
  const { meta } = draft;
  const content = beforeContent(draft.plan.changes, draft.previous, draft.holdsSecret ?? (() => false));
  return {
    format_version: HISTORY_FORMAT_VERSION,
    id: draft.id,
    time: draft.time,
    actor: meta.actor,
    commit: meta.commit,
    ref: meta.ref,
    run_url: meta.run_url,
    command: draft.command,
    tenant: draft.plan.tenant.name,
    plan_digest: draft.plan.digest ?? planDigest(draft.plan),
    status: 'started',
    changes: draft.plan.changes.map((c) => journalChange(c, undefined, draft.maskSecrets)),
    ...(Object.keys(content).length > 0 && { before_content: content }),
    ...(draft.rollbackOf !== undefined && { rollback_of: draft.rollbackOf }),
    ...(draft.preview === true && { preview: true as const }),
    ...(meta.dirty && { dirty: true as const }),
  };
}

/**
 * The final line: the outcome of every change, the status (`interrupted` after Ctrl-C, `completed`
 * when every change was done, else `failed`) and the state the tenant is left in. The content kept
 * on the started line is not repeated (readers fold the lines).
 */
export function finishedRecord(draft: JournalDraft, outcomes: readonly ApplyOutcome[], interrupted: boolean, finishedAt: string): JournalRecord {
  const { before_content: _kept, ...started } = startedRecord(draft);
  const changes = draft.plan.changes.map((c, i) => journalChange(c, outcomes[i], draft.maskSecrets));
  const status = interrupted ? 'interrupted' : changes.every((c) => c.outcome === 'done') ? 'completed' : 'failed';
  return { ...started, finished_at: finishedAt, status, changes, state: stateAfter(draft, changes) };
}

/**
 * The managed Roles as the tenant holds them after the apply, name → `roleSha`. A whole plan
 * manages every Role matched to a file: those it did not change are as listed, the others as
 * their change left them. A partial plan (`--target`) says nothing of the other Roles: they keep
 * the journal's last state. A change not done leaves its Role as it was.
 */
export function stateAfter(draft: Pick<JournalDraft, 'plan' | 'remote' | 'previous'>, changes: readonly JournalChange[]): Record<string, string> {
  const { plan } = draft;
  const targets = plan.options.targets === undefined ? undefined : globMatcher(plan.options.targets);
  const state = new Map<string, string>(targets === undefined ? [] : Object.entries(lastState(draft.previous) ?? {}));
  const ignored = globMatcher(plan.options.ignore);
  const notManaged = new Set([...plan.unmanaged.map((u) => u.id), ...plan.changes.flatMap((c) => (c.id === undefined ? [] : [c.id]))]);
  for (const role of draft.remote) {
    if (role.name === HISTORY_ROLE || ignored(role.name) !== undefined || notManaged.has(role.id)) continue;
    if (targets !== undefined && targets(role.name) === undefined) continue;
    state.set(role.name, roleSha(role));
  }
  plan.changes.forEach((change, i) => {
    const done = changes[i]?.outcome === 'done';
    if (change.action === 'create') {
      if (done) state.set(change.name, roleSha(change.after));
      else state.delete(change.name);
    } else if (change.action === 'update') {
      if (done) {
        state.delete(change.before.name);
        state.set(change.name, roleSha(change.after));
      } else state.set(change.before.name, roleSha(change.before));
    } else if (done) state.delete(change.name);
    else state.set(change.name, roleSha(change.before));
  });
  return Object.fromEntries([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The state of the last record that has one. */
export function lastState(records: readonly JournalRecord[]): Record<string, string> | undefined {
  for (let i = records.length - 1; i >= 0; i--) if (records[i]!.state !== undefined) return records[i]!.state;
  return undefined;
}

/**
 * The Roles an update or delete overwrites whose fields roleflow never applied from a clean
 * commit — a hand edit, or a Role made elsewhere — so that git may not hold them: their fields,
 * by `roleSha`, so `rollback --to` this record can put them back. Not those holding a secret: no
 * file roleflow writes holds one (rollback then says the content was not kept).
 */
function beforeContent(changes: readonly PlanChange[], previous: readonly JournalRecord[], holdsSecret: (text: string) => boolean): Record<string, RoleContent> {
  const inGit = shasInGit(previous);
  const kept: Record<string, RoleContent> = {};
  for (const change of changes) {
    if (change.action === 'create') continue;
    const sha = roleSha(change.before);
    const { name, description, content } = change.before;
    if (inGit.has(sha) || [name, description, content].some(holdsSecret)) continue;
    kept[sha] = { name, description, content };
  }
  return kept;
}

/** Every `roleSha` that a record applied (or found matching the files) from a commit with no uncommitted change. */
export function shasInGit(records: readonly JournalRecord[]): Set<string> {
  const shas = new Set<string>();
  for (const r of records) {
    if (r.commit === null || r.dirty === true) continue;
    for (const c of r.changes) if (c.after_sha256 !== undefined && c.outcome !== 'failed' && c.outcome !== 'not_started') shas.add(c.after_sha256);
    for (const sha of Object.values(r.state ?? {})) shas.add(sha);
  }
  return shas;
}

function journalChange(change: PlanChange, outcome: ApplyOutcome | undefined, mask: (text: string) => string = (text) => text): JournalChange {
  const id = change.id ?? outcome?.id;
  return {
    action: change.action,
    name: mask(change.name),
    ...(id !== undefined && { id }),
    ...(change.action === 'update' && change.before.name !== change.name && { renamed_from: mask(change.before.name) }),
    ...(change.action !== 'create' && { before_sha256: roleSha(change.before) }),
    ...(change.action !== 'delete' && { after_sha256: roleSha(change.after) }),
    outcome: outcome === undefined ? 'not_started' : changeOutcome(outcome.status),
  };
}
