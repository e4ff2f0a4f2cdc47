import type { ApplyStatus } from '../result.js';
import type { ChangeAction } from '../../plan/types.js';
import { sha256 } from '../../plan/hash.js';

/**
 * The apply journal (PRODUCT.md "History, rollback and drift"): one JSON object per line, the
 * `started` line appended before the first change is sent and a line with the same id and the
 * final status after. Readers fold the lines by id (`readJournal`). Keys are snake_case: the file
 * is the interface (`schemas/history.schema.json` describes a record).
 */
export const HISTORY_FORMAT_VERSION = 1;

export { HISTORY_ROLE } from '../../roles/reserved.js';

export type JournalCommand = 'apply' | 'promote' | 'rollback' | 'preview';
export type JournalStatus = 'started' | 'completed' | 'failed' | 'interrupted';
export type ChangeOutcome = 'done' | 'failed' | 'unknown' | 'not_started';

/** A Role's three fields, as the journal keeps the content roleflow did not put there. */
export interface RoleContent {
  name: string;
  description: string;
  content: string;
}

export interface JournalChange {
  action: ChangeAction;
  /** The name after the change (create, update) or the name deleted. */
  name: string;
  id?: string;
  /** An update that renames: the name before. */
  renamed_from?: string;
  /** `roleSha` of the Role before (update, delete). */
  before_sha256?: string;
  /** `roleSha` of the Role after (create, update). */
  after_sha256?: string;
  outcome: ChangeOutcome;
}

export interface JournalRecord {
  format_version: typeof HISTORY_FORMAT_VERSION;
  id: string;
  /** When the apply started (ISO). */
  time: string;
  finished_at?: string;
  actor: string;
  /** The commit whose role files were applied; null outside git (or for `rollback --to ID`). */
  commit: string | null;
  ref: string | null;
  run_url: string | null;
  command: JournalCommand;
  tenant: string;
  plan_digest: string;
  status: JournalStatus;
  changes: JournalChange[];
  /** The managed Roles as the tenant holds them after it: name → `roleSha`. */
  state?: Record<string, string>;
  /** The fields of Roles this apply updated or deleted whose content roleflow never applied from a commit: `roleSha` → fields. */
  before_content?: Record<string, RoleContent>;
  /** `rollback`: the record id or the commit it went back to. */
  rollback_of?: string;
  /** `preview`'s applies to a preview tenant. */
  preview?: true;
  /** The role files or config applied differed from `commit` (uncommitted changes): git does not hold what it applied. */
  dirty?: true;
}

/** The fingerprint of a Role's fields: sha256 of the JSON `[name, description, content]`. */
export function roleSha(role: RoleContent): string {
  return sha256(JSON.stringify([role.name, role.description, role.content]));
}

/** What an apply's per-Role status means for the journal. */
export function changeOutcome(status: ApplyStatus): ChangeOutcome {
  switch (status) {
    case 'created':
    case 'updated':
    case 'deleted':
      return 'done';
    case 'unknown':
      return 'unknown';
    case 'not_started':
      return 'not_started';
    case 'failed':
    case 'skipped':
      return 'failed';
  }
}

/** A record id: when it started, to the second (UTC), and four hex digits of chance: `20261128-064326-a1b2`. */
export function recordId(at: Date, random: string): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${random.slice(0, 4)}`;
}

/** The tenant's history file name: `.roleflow/history/<tenant>.jsonl`, the name made safe for any file system. */
export function historyFileName(tenant: string): string {
  return `${tenant.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_'}.jsonl`;
}
