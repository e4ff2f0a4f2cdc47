import type { Redactor } from '../core/text/redact.js';
import { countResults } from '../core/runs/index.js';
import { jsonText } from '../core/text/safe-text.js';
import { renderJson } from './json-text.js';
import { REPORT_FORMAT_VERSION, type RolesDigestRecord, type RunReport, type RunSelection, type RunSummary, type ShardPlanRecord, type TestResult, type WorkTreeRecord } from './model.js';
import { judgePassRate, type PassRateSource } from '../core/runs/loop/index.js';

/**
 * The report of a whole run from its tests' results (`build.ts` makes each result): the run's
 * facts, the summary counts, and secrets masked throughout.
 */

export interface RunFacts {
  version: string;
  tenant: RunReport['tenant'];
  commit?: string;
  selection?: RunSelection;
  rolesDigest?: RolesDigestRecord;
  workTree?: WorkTreeRecord;
  shard?: { index: number; total: number };
  shardPlan?: ShardPlanRecord;
  /** `--min-pass-rate` (or `flows.min_pass_rate`: `minPassRateSetBy`): the report's gate, judged from its results. */
  minPassRate?: number;
  minPassRateSetBy?: PassRateSource | undefined;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  bailed: boolean;
  interrupted?: boolean;
  results: TestResult[];
}

/**
 * The report of a run, redacted by `redactor` (see `redactReport`). Its JSON is made first (the
 * JSON reporter writes that text): when no form of any secret is in it (`mayHoldSecret`), no value
 * holds one and the report is already what redacting would make, so the walk through every value
 * of every result, the run's most expensive function, is not needed.
 */
export function buildRunReport(facts: RunFacts, redactor: Redactor): RunReport {
  const summary = summarise(facts.results);
  const report: RunReport = {
    format_version: REPORT_FORMAT_VERSION,
    tool: { name: 'roleflow', version: facts.version },
    tenant: facts.tenant,
    ...(facts.commit && { commit: facts.commit }),
    ...(facts.selection && { selection: facts.selection }),
    ...(facts.rolesDigest && { roles_digest: facts.rolesDigest }),
    ...(facts.workTree && { work_tree: facts.workTree }),
    ...(facts.shard && { shard: facts.shard }),
    ...(facts.shardPlan && { shard_plan: facts.shardPlan }),
    started_at: facts.startedAt.toISOString(),
    finished_at: facts.finishedAt.toISOString(),
    duration_ms: Math.round(facts.durationMs),
    bailed: facts.bailed,
    interrupted: facts.interrupted === true,
    summary,
    ...(facts.minPassRate !== undefined && { gate: judgePassRate(summary, facts.minPassRate, facts.bailed, facts.minPassRateSetBy) }),
    results: facts.results,
  };
  if (redactor.none || !redactor.mayHoldSecret(renderJson(report))) return report;
  return redactReport(report, redactor);
}

/** `report` with secrets masked in its values, and in the keys of the tenant's data (`redactResult`). */
export function redactReport(report: RunReport, redactor: Redactor): RunReport {
  if (redactor.none) return report;
  const { results, ...head } = report;
  return { ...redactor.values(head), results: results.map((r) => redactResult(r, redactor)) };
}

/**
 * `result` with secrets masked in every string value. Keys are the report's structure and stay,
 * except where they are the tenant's data — a flow's outputs, the services of step latencies —
 * which may hold a secret as well as any value. Nothing is copied when nothing changes, and a
 * result whose JSON holds no form of a secret is not walked at all (the console prints each
 * result as its test ends: the walk cost more than the text).
 */
export function redactResult(result: TestResult, redactor: Redactor): TestResult {
  if (redactor.none || !redactor.mayHoldSecret(jsonText(result))) return result;
  const clean = redactor.values(result);
  const stepLatency = redactor.values(clean.step_latency_ms, { keys: true });
  let repeats = clean.repeats;
  clean.repeats.forEach((repeat, i) => {
    if (repeat.outputs === undefined) return;
    const outputs = redactor.values(repeat.outputs, { keys: true });
    if (outputs !== repeat.outputs) (repeats = repeats === clean.repeats ? [...repeats] : repeats)[i] = { ...repeat, outputs };
  });
  return stepLatency === clean.step_latency_ms && repeats === clean.repeats ? clean : { ...clean, step_latency_ms: stepLatency, repeats };
}

/** The summary of `results`: their counts (`countResults`), as `promote` recounts them. */
export function summarise(results: readonly TestResult[]): RunSummary {
  return countResults(results);
}
