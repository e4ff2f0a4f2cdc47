import { quote, showName } from '../roles/display.js';
import { applySucceeded, applySummaryLine, duplicateLine, outcomeLine, summarizeOutcomes, unknownOutcomeNote, type ApplyOutcome, type ApplyRunStatus } from './result.js';

/** What an apply did: every change's outcome, and what the check for concurrent copies found. */
export interface ApplyRun {
  outcomes: ApplyOutcome[];
  /** Creates whose copies another apply made at the same time were resolved (the lowest id stays). */
  resolved: ApplyOutcome[];
  /** The check after applying could not be made (the tenant could not be listed). */
  warning?: string;
  interrupted: boolean;
}

/** How an apply ends on the console: results on stdout, what went wrong on stderr. */
export interface ApplyEnd {
  ok: boolean;
  status: ApplyRunStatus;
  /** After the per-Role lines: concurrent copies resolved, then the closing line when it succeeded. */
  out: string[];
  /** Warnings, and on failure the closing line, every Role not done, and what to do now. */
  err: string[];
}

/**
 * The end of an apply as lines, from its run alone (the per-Role lines were printed as each ended).
 * `tenant`: one tenant's turn in a run over several, whose warnings and failure line on stderr
 * (where no tenant heading is) name it.
 */
export function applyEnd(run: ApplyRun, tenant?: string): ApplyEnd {
  const named = (text: string): string => (tenant === undefined ? text : `tenant ${quote(tenant)}: ${text}`);
  const summary = summarizeOutcomes(run.outcomes);
  const ok = applySucceeded(summary);
  const line = applySummaryLine(summary, run.interrupted);
  const out = run.resolved.map(duplicateLine);
  const err = run.warning === undefined ? [] : [`warning: ${named(run.warning)}`];
  if (ok) return { ok, status: 'applied', out: [...out, line], err };
  err.push(named(line));
  const notDone = run.outcomes.filter((o) => !['created', 'updated', 'deleted'].includes(o.status));
  for (const o of notDone) err.push(`  ${outcomeLine(o)}`);
  if (summary.unknown > 0) err.push(unknownOutcomeNote(summary.unknown));
  const refused = notDone.filter((o) => o.refused === true);
  if (refused.length > 0) {
    err.push(`The tenant refused the request for ${refused.map((o) => showName(o.name)).join(', ')} as it was sent: applying again sends the same and fails the same; change the role file (or the tenant's limits) first.`);
  }
  // Anything else not done (failed otherwise, skipped, not started, unknown) converges with a new plan.
  if (refused.length < notDone.length) err.push(`Run \`roleflow apply${tenant === undefined ? '' : ` --tenant ${showName(tenant)}`}\` again: it plans from the tenant as it is now, so it converges.`);
  return { ok, status: run.interrupted ? 'interrupted' : 'failed', out, err };
}
