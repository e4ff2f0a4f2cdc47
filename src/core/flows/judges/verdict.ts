import { sha256 } from '../../plan/hash.js';
import { stableJson } from '../../text/stable-json.js';
import { valueAt } from '../path.js';
import type { JudgeAssertion, JudgeRecord } from '../types.js';
import type { JudgeConfig } from './config.js';

/** The output under test as the judge reads it: a string as it is, anything else as JSON. */
export function outputText(value: unknown): string {
  return typeof value === 'string' ? value : stableJson(value);
}

/** The judge flow's inputs: `${output}`, `${rubric}`, `${reference}` replaced in each template ('' without a reference). */
export function judgeInputs(judge: JudgeConfig, output: string, a: JudgeAssertion): Record<string, string> {
  const values: Record<string, string> = { output, rubric: a.rubric, reference: a.reference ?? '' };
  return Object.fromEntries(
    Object.entries(judge.inputs).map(([key, template]) => [key, template.replace(/\$\{(output|rubric|reference)\}/g, (_, name: string) => values[name]!)]),
  );
}

/**
 * What a verdict is found again by: the judge (its flow and inputs), the output, the rubric, the
 * reference, the votes and the content of the judge's prompt Role. Any change to one judges again.
 */
export function verdictDigest(judge: JudgeConfig, output: string, a: JudgeAssertion, roleContent: string): string {
  return sha256(JSON.stringify(['judge', judge.name, judge.flow, judge.inputs, output, a.rubric, a.reference ?? null, a.votes, roleContent]));
}

/** One judge execution's answer: its outputs read by the judge's `verdict` paths, or why there is none. */
export interface Vote {
  pass?: boolean;
  score?: number;
  reason?: string;
  error?: string;
  ids: JudgeRecord['executions'][number];
}

/**
 * A vote from the judge's outputs: `pass` is true, "true", "pass", "yes" or 1 (false, "false",
 * "fail", "no", 0 the other way; anything else, or nothing, is an error); `score` a number or a
 * numeric string; `reason` any text.
 */
export function readVote(judge: JudgeConfig, outputs: unknown, ids: Vote['ids']): Vote {
  const pass = valueAt(outputs, judge.verdict.pass.segments);
  const vote: Vote = { ids };
  const verdict = pass.found ? truth(pass.value) : undefined;
  if (verdict === undefined) vote.error = `the judge's outputs hold no verdict at ${judge.verdict.pass.text}${pass.found ? ` (got ${JSON.stringify(pass.value)})` : ''}`;
  else vote.pass = verdict;
  const score = valueAt(outputs, judge.verdict.score.segments);
  const n = typeof score.value === 'number' ? score.value : typeof score.value === 'string' && score.value.trim() !== '' ? Number(score.value) : NaN;
  if (score.found && Number.isFinite(n)) vote.score = n;
  const reason = valueAt(outputs, judge.verdict.reason.segments);
  if (reason.found && reason.value !== undefined && reason.value !== null) vote.reason = typeof reason.value === 'string' ? reason.value : JSON.stringify(reason.value);
  return vote;
}

function truth(value: unknown): boolean | undefined {
  const text = String(value).trim().toLowerCase();
  if (value === true || value === 1 || ['true', 'pass', 'passed', 'yes'].includes(text)) return true;
  if (value === false || value === 0 || ['false', 'fail', 'failed', 'no'].includes(text)) return false;
  return undefined;
}

/**
 * The verdict of the votes: pass when more than half of them passed; an error (no verdict) when
 * more than half of them could not vote; else fail. The score is the mean of the scores given; every reason
 * (and every error) is kept, in the order of the votes.
 */
export function majority(judge: string, digest: string, votes: readonly Vote[]): JudgeRecord {
  const passed = votes.filter((v) => v.pass === true).length;
  const failed = votes.filter((v) => v.pass === false).length;
  const half = votes.length / 2;
  const errors = votes.length - passed - failed;
  const verdict = passed > half ? 'pass' : errors > half ? 'error' : 'fail';
  const scores = votes.flatMap((v) => (v.score === undefined ? [] : [v.score]));
  const record: JudgeRecord = {
    judge,
    digest,
    verdict,
    reasons: votes.flatMap((v) => [...(v.reason === undefined ? [] : [v.reason]), ...(v.error === undefined ? [] : [`error: ${v.error}`])]),
    executions: votes.map((v) => v.ids),
  };
  if (scores.length > 0) record.score = scores.reduce((a, b) => a + b, 0) / scores.length;
  return record;
}
