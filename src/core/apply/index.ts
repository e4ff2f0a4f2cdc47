/**
 * Applying a plan, the pure parts (PRODUCT.md "Apply semantics"). The executor in
 * `src/run/roles/apply-plan.ts` sends the requests; this decides the phases and what each result means.
 *
 * - `applyPhases(changes)`: runs of one action in plan order; a phase starts when the previous ended.
 * - `blockedReason(change, failedToFree)`: a change that would take a name a failed change was to free
 *   is skipped rather than leave two Roles with one name.
 * - `concurrentDuplicates(changes, outcomes, remote)`: after applying, copies of Roles this apply
 *   created that a concurrent apply created too; the lowest id stays (`duplicateLine` says so).
 * - `outcomeOf`, `outcomeLine`, `summarizeOutcomes`, `applySummaryLine`, `applyResultJson`: the
 *   per-Role results and the closing summary, for the console and `--json`.
 * - `applyEnd(run)`: how an apply ends on the console, from its run alone.
 */
export { concurrentDuplicates, type DuplicateResolution } from './duplicates.js';
export { applyEnd, type ApplyEnd, type ApplyRun } from './end.js';
export { applyPhases, blockedReason, freedName, takenName } from './phases.js';
export {
  applyResultJson,
  applySucceeded,
  applySummaryLine,
  duplicateLine,
  outcomeLine,
  outcomeOf,
  summarizeOutcomes,
  unknownOutcomeNote,
  type ApplyOutcome,
  type ApplyResult,
  type ApplyRunStatus,
  type ApplyStatus,
  type ApplySummary,
} from './result.js';
