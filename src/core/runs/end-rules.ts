import type { ExecutionLogEntry, WsServerMessage } from '../model.js';
import type { EndedBy, FlowTest, FlowTestFile } from '../flows/types.js';
import { messagePayload } from './ws-payload.js';

/**
 * When an execution is over (PRODUCT.md, "Interface ambiguities"), as pure decisions: the runner
 * polls or reads messages, keeps the clock and calls these after every observation. A `running`
 * answer says how long the runner may wait before the next look (`waitMs`), so it never sleeps
 * past the moment the quiet period would end.
 */

export interface HttpsEndRule {
  /** Over at this many logged steps (`until.steps`, else `expect.steps.count`). */
  steps?: number;
  /** Otherwise over when the non-empty log has not changed for this long. */
  quietMs: number;
}

export interface WsEndRule {
  node?: string;
  messages?: number;
  quietMs: number;
}

/** What the HTTPS runner carries from one poll to the next. */
export interface PollHistory {
  /** The log as last seen, to notice a change (under a quiet rule; empty under a step count, which needs none). */
  signature: string;
  /** When the log last changed (the runner's clock, ms). */
  changedAtMs: number;
}

export type HttpsProgress =
  | { state: 'running'; history: PollHistory; quietEndsInMs?: number }
  | { state: 'done'; history: PollHistory; by: RuleEnd }
  | { state: 'failed'; history: PollHistory; step: ExecutionLogEntry; reason: string };

/** Why an execution the end rule saw through is over: its `until` was reached, or only quiet says so. */
export type RuleEnd = Extract<EndedBy, 'until' | 'quiet'>;

/**
 * What the WebSocket runner has seen so far, brought up to date one message at a time by
 * `tallyWsMessage` in constant time: judging the whole list again after every message made a
 * flow of N messages cost O(N²).
 */
export interface WsTally {
  /** Completed messages (the ack does not count). */
  completed: number;
  /** The last completed message: its outputs are the execution's. */
  lastCompleted?: WsServerMessage;
  /** The first message with a statusCode other than 200. */
  refused?: WsServerMessage;
  /** Whether the completed message of the rule's `node` has come. */
  reachedNode: boolean;
}

export const EMPTY_WS_TALLY: WsTally = { completed: 0, reachedNode: false };

export type WsProgress =
  | { state: 'running'; quietEndsInMs?: number }
  | { state: 'done'; by: RuleEnd }
  | { state: 'failed'; message: WsServerMessage; reason: string };

// The pace of HTTPS polls: a fifth of the time since the start, from 25ms to 1s. The end of an
// execution is then seen at most ~20% of its duration late (a 200ms flow at ~217ms), while a
// 10s flow is polled about 30 times.
const POLL_FRACTION = 0.2;
const MIN_POLL_MS = 25;
const MAX_POLL_MS = 1_000;

export function httpsEndRule(test: FlowTest): HttpsEndRule {
  const steps = test.until.steps ?? test.expect.steps?.count?.value;
  // Member by member (see wsEndRule).
  const rule = {} as HttpsEndRule;
  if (steps !== undefined) rule.steps = steps;
  rule.quietMs = test.until.quietMs;
  return rule;
}

export function wsEndRule(test: FlowTest): WsEndRule {
  const { node, messages, quietMs } = test.until;
  // Member by member: a literal's members after a spread cost V8 a runtime call each (per execution here).
  const rule = {} as WsEndRule;
  if (node !== undefined) rule.node = node;
  if (messages !== undefined) rule.messages = messages;
  rule.quietMs = quietMs;
  return rule;
}

/**
 * After a poll of the execution log (`history` undefined on the first poll). A step whose status
 * is not `completed` fails the execution at once; then the step count, when the rule has one, else
 * the quiet period. The runner keeps `history` from each answer for the next call. Only the quiet
 * period looks at the log's changes: under a step count the log is not serialised to notice them
 * (every poll of every execution), and `history` stays the first poll's.
 */
export function httpsProgress(
  entries: readonly ExecutionLogEntry[],
  history: PollHistory | undefined,
  rule: HttpsEndRule,
  nowMs: number,
): HttpsProgress {
  const next: PollHistory = rule.steps !== undefined ? (history ?? { signature: '', changedAtMs: nowMs }) : changes(entries, history, nowMs);
  const failedStep = entries.find((e) => e.status !== 'completed');
  if (failedStep) {
    const why = failedStep.error ? `: ${shortened(failedStep.error)}` : '';
    const reason = `step "${failedStep.service}" ended with status ${JSON.stringify(failedStep.status)}${why}`;
    return { state: 'failed', history: next, step: failedStep, reason };
  }
  if (rule.steps !== undefined) {
    return entries.length >= rule.steps ? { state: 'done', history: next, by: 'until' } : { state: 'running', history: next };
  }
  if (entries.length === 0) return { state: 'running', history: next };
  const quietFor = nowMs - next.changedAtMs;
  return quietFor >= rule.quietMs
    ? { state: 'done', history: next, by: 'quiet' }
    : { state: 'running', history: next, quietEndsInMs: rule.quietMs - quietFor };
}

/** `history` brought up to the log as it is now: unchanged, or changed at `nowMs`. */
function changes(entries: readonly ExecutionLogEntry[], history: PollHistory | undefined, nowMs: number): PollHistory {
  const signature = JSON.stringify(entries);
  return history && history.signature === signature ? history : { signature, changedAtMs: nowMs };
}

/** The wait after a poll answered `elapsedMs` after the start: a fifth of it, from 25ms to 1s. */
export function nextPollDelay(elapsedMs: number): number {
  const proportional = Number.isNaN(elapsedMs) ? 0 : elapsedMs * POLL_FRACTION;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, proportional));
}

/**
 * When an execution should be over, in ms after its start was answered, judged from the step
 * latencies the tenant reported for an earlier execution of the flow (`known`, steps one after
 * another): the sum up to the step the rule waits for (all of them under a quiet rule). Undefined
 * when nothing is known, or the log already shows every step expected.
 */
export function expectedEndMs(known: readonly number[] | undefined, rule: HttpsEndRule, logged: number): number | undefined {
  const steps = rule.steps ?? known?.length ?? 0;
  if (!known || steps > known.length || logged >= steps) return undefined;
  return known.slice(0, steps).reduce((sum, ms) => sum + ms, 0);
}

/**
 * How long to wait before the next poll, or `undefined` when the deadline has passed (the
 * execution is an error, with no last sleep). Never longer than the pace (`nextPollDelay` of the
 * time since the start), the rest of the quiet period, the time until the execution is expected to
 * end (`endDueInMs`, from `expectedEndMs`), or the time left: the final poll lands on the deadline.
 */
export function httpsWaitMs(progress: HttpsProgress, elapsedMs: number, msLeft: number, endDueInMs?: number): number | undefined {
  if (msLeft <= 0) return undefined;
  const quiet = progress.state === 'running' ? (progress.quietEndsInMs ?? Infinity) : Infinity;
  // An expected end already passed says nothing more: the pace takes over.
  const due = endDueInMs !== undefined && endDueInMs > 0 ? endDueInMs : Infinity;
  return Math.max(0, Math.min(nextPollDelay(elapsedMs), quiet, due, msLeft));
}

/** `tally` with one more message (pure, constant time). */
export function tallyWsMessage(tally: WsTally, message: WsServerMessage, rule: WsEndRule): WsTally {
  const refused = tally.refused ?? (message.statusCode !== 200 ? message : undefined);
  if (message.state !== 'completed') return refused === tally.refused ? tally : { ...tally, ...(refused && { refused }) };
  // Member by member, for every message: no member after a spread (see wsEndRule).
  const next = { completed: tally.completed + 1, lastCompleted: message } as WsTally;
  if (refused) next.refused = refused;
  next.reachedNode = tally.reachedNode || (rule.node !== undefined && message.nodeId === rule.node);
  return next;
}

/** The tally of a whole list of messages (for a list at hand; the runner tallies as they come). */
export function tallyWsMessages(messages: readonly WsServerMessage[], rule: WsEndRule): WsTally {
  return messages.reduce((tally, m) => tallyWsMessage(tally, m, rule), EMPTY_WS_TALLY);
}

/**
 * After each message (or a wait that brought none), from the tally of the messages so far.
 * `msSinceLast`: time since the last message arrived. A non-200 `statusCode` fails at once; then
 * the completed message of `node`, the `messages`-th completed message, or — with neither set —
 * `quietMs` of silence after the first completed message. `running.quietEndsInMs` is how long to
 * wait for the next message.
 */
export function wsProgress(tally: WsTally, rule: WsEndRule, msSinceLast: number): WsProgress {
  const refused = tally.refused;
  if (refused) {
    // A payload's `error` member, when it has one, says why better than the whole payload.
    const payload = messagePayload(refused) as { error?: unknown } | undefined;
    const text = shortened(typeof payload?.error === 'string' ? payload.error : refused.messageText);
    const reason = `message from ${refused.service ?? 'the service'} has statusCode ${String(refused.statusCode)}: ${text}`;
    return { state: 'failed', message: refused, reason };
  }
  const done = (by: RuleEnd): WsProgress => ({ state: 'done', by });
  if (rule.node !== undefined) return tally.reachedNode ? done('until') : { state: 'running' };
  if (rule.messages !== undefined) return tally.completed >= rule.messages ? done('until') : { state: 'running' };
  if (tally.completed === 0) return { state: 'running' };
  return msSinceLast >= rule.quietMs ? done('quiet') : { state: 'running', quietEndsInMs: rule.quietMs - msSinceLast };
}

/** The outputs of a WebSocket execution: the `outputs` of the last completed message's payload. */
export function tallyOutputs(tally: WsTally): unknown {
  const payload = tally.lastCompleted === undefined ? undefined : messagePayload(tally.lastCompleted);
  return typeof payload === 'object' && payload !== null ? (payload as { outputs?: unknown }).outputs : undefined;
}

/**
 * Tests that may run over the WebSocket (their transport is `ws`, or not set) with nothing but
 * quiet to end them: no `until.node`, no `until.messages`. Such an execution passes with the
 * outputs of whatever node spoke last when a later node hangs; `validate` warns about each,
 * unless strict end is on (then a quiet end is an error already).
 */
export function quietEndedWsTests(file: FlowTestFile): FlowTest[] {
  return file.tests.filter(
    (t) => t.skip === undefined && (t.transports?.includes('ws') ?? true) && t.until.node === undefined && t.until.messages === undefined,
  );
}

/** A tenant's text in a reason: at most 200 characters. */
function shortened(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
