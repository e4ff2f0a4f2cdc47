import { plural, showName } from '../roles/index.js';
import { jsonText } from '../text/safe-text.js';
import type { ChangeAction, Plan, PlanChange } from '../plan/index.js';

/**
 * What became of one planned change. `unknown`: a create was sent, its outcome never came back,
 * and the Role had not appeared when the settle window closed; it may still be created.
 */
export type ApplyStatus = 'created' | 'updated' | 'deleted' | 'failed' | 'unknown' | 'skipped' | 'not_started';

/** One planned change and its result; keys are snake_case because `apply --json` prints them. */
export interface ApplyOutcome {
  action: ChangeAction;
  name: string;
  id?: string;
  file?: string;
  /** The name before a rename. */
  renamed_from?: string;
  status: ApplyStatus;
  /** One line: why it failed or was skipped. */
  error?: string;
  /** A delete whose Role was already gone from the tenant: the goal is met all the same. */
  already_gone?: boolean;
  /** A failure the tenant answered with a refusal of the request itself (a 4xx such as 413): sent again, it fails again. */
  refused?: boolean;
  /**
   * A create that another apply made at the same time too: the ids of the identical copies this
   * apply deleted after applying (the lowest id is kept, whichever apply looks; `id` is it).
   */
  duplicates_removed?: string[];
  /** The id this apply's create got, when another apply already removed that copy in favour of `id`. */
  created_id?: string;
  /** A create whose outcome was unknown when its settle window closed, found on the tenant after applying. */
  appeared_late?: boolean;
}

export interface ApplySummary {
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  unknown: number;
  skipped: number;
  not_started: number;
}

/** The outcome of a change that did not run (yet): the plan's facts, ready for a status. */
export function outcomeOf(change: PlanChange, status: ApplyStatus, extra: Partial<ApplyOutcome> = {}): ApplyOutcome {
  const renamedFrom = change.action === 'update' && change.before && change.before.name !== change.name ? change.before.name : undefined;
  return {
    action: change.action,
    name: change.name,
    ...(change.id === undefined ? {} : { id: change.id }),
    ...(change.file === undefined ? {} : { file: change.file }),
    ...(renamedFrom === undefined ? {} : { renamed_from: renamedFrom }),
    status,
    ...extra,
  };
}

export function summarizeOutcomes(outcomes: readonly ApplyOutcome[]): ApplySummary {
  const summary: ApplySummary = { created: 0, updated: 0, deleted: 0, failed: 0, unknown: 0, skipped: 0, not_started: 0 };
  for (const o of outcomes) summary[o.status]++;
  return summary;
}

/** `+ created support-agent (id …)`, `✗ failed to create x: <error>`, one line per change. */
export function outcomeLine(o: ApplyOutcome): string {
  const id = o.id === undefined ? '' : `id ${showName(o.id)}`;
  const detail = (...parts: (string | undefined)[]): string => {
    const shown = parts.filter((p) => p !== undefined && p !== '');
    return shown.length === 0 ? '' : ` (${shown.join('; ')})`;
  };
  const name = showName(o.name);
  switch (o.status) {
    case 'created':
      return `+ created ${name}${detail(id)}`;
    case 'updated':
      return `~ updated ${name}${detail(o.renamed_from === undefined ? undefined : `renamed from ${showName(o.renamed_from)}`, id)}`;
    case 'deleted':
      return `- deleted ${name}${detail(id, o.already_gone ? 'already gone' : undefined)}`;
    case 'failed':
      return `✗ failed to ${o.action} ${name}${detail(id)}: ${o.error ?? 'unknown error'}`;
    case 'unknown':
      return `? outcome unknown: create ${name}: ${o.error ?? 'no answer'}`;
    case 'skipped':
      return `✗ skipped ${o.action} ${name}${detail(id)}: ${o.error ?? 'not run'}`;
    case 'not_started':
      return `· not started: ${o.action} ${name}${detail(id)}`;
  }
}

/** Whether every change is known to have reached its goal. */
export function applySucceeded(summary: ApplySummary): boolean {
  return summary.failed + summary.unknown + summary.skipped + summary.not_started === 0;
}

/**
 * What the check after applying found about a create (see `concurrentDuplicates`):
 * `= support-agent: another apply created it at the same time; kept id 1 (the lowest), removed 1 copy (id 7)`,
 * or for a create whose outcome was unknown `+ support-agent appeared on the tenant after all (id 1)`.
 */
export function duplicateLine(o: ApplyOutcome): string {
  const removed = o.duplicates_removed ?? [];
  const copies = removed.length === 0 ? '' : `removed ${plural(removed.length, 'copy', 'copies')} (id ${removed.map(showName).join(', ')})`;
  const ours = o.created_id === undefined ? '' : `this apply's copy (id ${showName(o.created_id)}) was already removed`;
  const rest = [copies, ours].filter((part) => part !== '').join('; ');
  const name = showName(o.name);
  const id = showName(o.id ?? '');
  if (o.appeared_late) return `+ ${name} appeared on the tenant after all (id ${id})${copies === '' ? '' : `; kept the lowest id of identical copies, ${copies}`}`;
  return `= ${name}: another apply created it at the same time; kept id ${id} (the lowest)${rest === '' ? '' : `, ${rest}`}`;
}


/**
 * The closing line: `Apply complete: 3 created, 1 updated, 0 deleted.`, or on failure
 * `Apply failed: 2 of 5 changes failed; 3 succeeded.` (creates whose outcome is unknown are
 * counted apart: they are neither done nor failed), or after Ctrl-C how far it got.
 */
export function applySummaryLine(summary: ApplySummary, interrupted = false): string {
  const done = summary.created + summary.updated + summary.deleted;
  const counts = `${summary.created} created, ${summary.updated} updated, ${summary.deleted} deleted`;
  if (applySucceeded(summary)) return `Apply complete: ${counts}.`;
  const total = done + summary.failed + summary.unknown + summary.skipped + summary.not_started;
  const unknown = summary.unknown > 0 ? `, ${summary.unknown} with an unknown outcome` : '';
  if (interrupted) {
    const failed = summary.failed + summary.skipped;
    return `Apply interrupted: ${done} of ${plural(total, 'change')} done (${counts})${failed > 0 ? `, ${failed} failed` : ''}${unknown}; ${summary.not_started} not started.`;
  }
  const notDone = summary.failed + summary.skipped + summary.not_started;
  const failed = notDone > 0 || summary.unknown === 0 ? `${notDone} of ${plural(total, 'change')} failed${unknown}` : `${summary.unknown} of ${plural(total, 'change')} with an unknown outcome`;
  return `Apply failed: ${failed}; ${done} succeeded${done > 0 ? ` (${counts})` : ''}.`;
}

export type ApplyRunStatus = 'applied' | 'no_changes' | 'failed' | 'interrupted' | 'refused' | 'cancelled';

/** What `apply --json` prints: the tenant, the overall status, and one result per planned change. */
export interface ApplyResult {
  format_version: 1;
  tenant: Plan['tenant'];
  status: ApplyRunStatus;
  summary: ApplySummary;
  results: ApplyOutcome[];
  reasons?: string[];
}

/** `ApplyResult` as `apply --json` prints it. */
export function applyResultJson(
  plan: Pick<Plan, 'tenant'>,
  status: ApplyRunStatus,
  outcomes: readonly ApplyOutcome[],
  reasons: readonly string[] = [],
): string {
  const document: ApplyResult = {
    format_version: 1,
    tenant: plan.tenant,
    status,
    summary: summarizeOutcomes(outcomes),
    results: [...outcomes],
    ...(reasons.length === 0 ? {} : { reasons: [...reasons] }),
  };
  return `${jsonText(document, 2)}\n`;
}

/** After an apply with unknown outcomes: what that means, so nobody re-runs it expecting duplicates. */
export function unknownOutcomeNote(unknown: number): string {
  const one = unknown === 1;
  return `The tenant did not say whether ${one ? 'a create was' : `${unknown} creates were`} carried out, and ${one ? 'it was' : 'they were'} not sent again (that could make duplicates): ${one ? 'it' : 'they'} may still appear.`;
}
