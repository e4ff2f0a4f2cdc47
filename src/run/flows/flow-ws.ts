import { formatMs, type EndedBy, type ExecutionResult, type FlowTest } from '../../core/flows/index.js';
import { EMPTY_WS_TALLY, tallyOutputs, tallyWsMessage, wsEndRule, wsProgress, type WsEndRule, type WsTally } from '../../core/runs/index.js';
import { RoleflowError } from '../../core/errors.js';
import type { TenantClient, WsServerMessage, WsSession } from '../../core/model.js';
import { Deadline, executionEnd, interruptedProblem, realClock, strictEndProblem, wholeMs, type RunClock, type RunOptions } from './flow-shared.js';

/**
 * One execution of `test` over the WebSocket: send `{action: "message", service, ...inputs}`,
 * expect an ack first, then read `completed` messages until the core's end rule says it is over
 * (a node, a number of messages, or a quiet period that restarts with every message), within the
 * test's timeout. Every message is kept; the outputs are the last completed message's. Each
 * message costs the same whatever came before it (a tally, not a look over the list). The
 * wall-clock runs from just before opening the connection to the last message received.
 */
export async function runWs(client: TenantClient, test: FlowTest, inputs: Record<string, string>, options: RunOptions = {}): Promise<ExecutionResult> {
  const run = new WsRun(test, options.clock ?? realClock, options);
  try {
    const opening = client.openWs();
    const opened = await run.deadline.race(opening);
    if (!opened.ok) {
      // A connection that opens after we gave up is closed at once.
      if (opened.why !== 'error') opening.then((late) => late.close(), () => undefined);
      return opened.why === 'error' ? run.end('error', 'error', opened.error) : run.unfinished(opened.why, 'the connection to open');
    }
    try {
      return await run.converse(opened.value, inputs);
    } finally {
      opened.value.close();
    }
  } finally {
    run.deadline.clear();
  }
}

class WsRun {
  readonly messages: WsServerMessage[] = [];
  readonly messageAtMs: number[] = [];
  readonly deadline: Deadline;
  private tally: WsTally = EMPTY_WS_TALLY;
  private readonly rule: WsEndRule;
  private readonly startedAt: number;
  /** When the last message arrived: the end of the wall-clock once the flow is over. */
  private lastAt: number;

  constructor(
    private readonly test: FlowTest,
    private readonly clock: RunClock,
    private readonly options: RunOptions,
  ) {
    this.startedAt = clock.now();
    this.lastAt = this.startedAt;
    this.deadline = new Deadline(clock, test.timeoutMs, options.signal);
    this.rule = wsEndRule(test);
  }

  async converse(session: WsSession, inputs: Record<string, string>): Promise<ExecutionResult> {
    try {
      session.send(frameOf(inputs, this.test.flow));
    } catch (error) {
      return this.end('error', 'error', error);
    }
    const first = await this.next(session, this.deadline.msLeft());
    if (first instanceof Error) return this.end('error', 'error', `${first.message} before an ack`);
    if (first === 'interrupted') return this.unfinished('interrupted', 'an ack');
    if (first === undefined) return this.unfinished('timeout', 'an ack');
    this.receive(first);
    if (first.state !== 'ack') return this.end('error', 'error', `expected an ack first, got ${describeMessage(first)}`, this.lastAt);

    for (;;) {
      const now = this.clock.now();
      const progress = wsProgress(this.tally, this.rule, now - this.lastAt);
      if (progress.state === 'done') return this.over(progress.by);
      if (progress.state === 'failed') return this.end('failed', 'failed_step', progress.reason, this.lastAt);
      const left = this.deadline.msLeft(now);
      if (left <= 0) return this.unfinished('timeout', this.waitingFor());
      const next = await this.next(session, Math.min(progress.quietEndsInMs ?? left, left));
      if (next === 'interrupted') return this.unfinished('interrupted');
      if (next instanceof RoleflowError && next.code === 'too_large') return this.end('error', 'error', next);
      if (next instanceof Error) {
        // With no node or count to wait for, a service closing the connection after its
        // completed messages has said it is finished as clearly as a quiet period would.
        const quietRule = this.rule.node === undefined && this.rule.messages === undefined;
        if (quietRule && this.tally.completed > 0) return this.over('quiet', true);
        return this.end('error', 'error', `${next.message} before the flow finished (${this.tally.completed} completed messages)`);
      }
      if (next !== undefined) this.receive(next);
    }
  }

  /** Ended by the rule: a pass, unless only quiet (or a closed connection) said so under --strict-end. */
  private over(by: 'until' | 'quiet', closed = false): ExecutionResult {
    if (by === 'quiet' && this.options.strictEnd) return this.end('error', 'quiet', strictEndProblem('ws', this.rule.quietMs, closed), this.lastAt);
    return this.end('ok', by, undefined, this.lastAt);
  }

  unfinished(why: 'timeout' | 'interrupted', waiting = this.waitingFor()): ExecutionResult {
    if (why === 'interrupted') return this.end('error', 'interrupted', interruptedProblem(this.clock.now() - this.startedAt));
    return this.end('error', 'timeout', `timed out after ${formatMs(this.test.timeoutMs)} waiting for ${waiting}`);
  }

  /** `problem`: why it ended, as text or as the error a request failed with (whose code it keeps). */
  end(status: ExecutionResult['status'], endedBy: EndedBy, problem?: unknown, at = this.clock.now()): ExecutionResult {
    const outputs = tallyOutputs(this.tally);
    const ids = wsIds(this.messages);
    const result = executionEnd('ws', this.test.flow, status, endedBy, problem);
    if (outputs !== undefined) result.outputs = outputs;
    result.messages = this.messages;
    result.messageAtMs = this.messageAtMs;
    result.wallMs = at - this.startedAt;
    if (ids) result.ids = ids;
    return result;
  }

  private receive(message: WsServerMessage): void {
    this.messages.push(message);
    this.messageAtMs.push(this.clock.now() - this.startedAt);
    this.tally = tallyWsMessage(this.tally, message, this.rule);
    this.lastAt = this.clock.now();
  }

  /** The next message, `undefined` when none came in time, the error of a dropped connection, or the run's interruption. */
  private async next(session: WsSession, ms: number): Promise<WsServerMessage | undefined | Error | 'interrupted'> {
    try {
      // The wait carries its own timer (never past the deadline) and ends when the run is interrupted.
      const message = await session.next(wholeMs(ms), this.options.signal);
      return message === undefined && this.deadline.interrupted ? 'interrupted' : message;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  private waitingFor(): string {
    const rule = this.rule;
    const got = `${this.tally.completed} completed messages so far`;
    if (rule.node !== undefined) return `the completed message of node "${rule.node}" (${got})`;
    if (rule.messages !== undefined) return `${rule.messages} completed messages (${got})`;
    return `a completed message and ${formatMs(rule.quietMs)} of quiet (${got})`;
  }
}

/**
 * The frame sent: the inputs, then the frame's own members, so that an input cannot overwrite
 * them. Copied key by key (inputs are built by assignment, so they hold no `__proto__` of their
 * own): a literal `{ ...inputs, action, service }` costs V8 a runtime call per member after the spread.
 */
function frameOf(inputs: Record<string, string>, flow: string): Record<string, string> {
  const frame: Record<string, string> = {};
  for (const key of Object.keys(inputs)) frame[key] = inputs[key]!;
  frame['action'] = 'message';
  frame['service'] = flow;
  return frame;
}

function describeMessage(m: WsServerMessage): string {
  const text = m.messageText.length > 160 ? `${m.messageText.slice(0, 159)}…` : m.messageText;
  return `a message with state ${JSON.stringify(m.state)} and statusCode ${String(m.statusCode)}${text ? `: ${text}` : ''}`;
}

/**
 * The connection and the messages as the service named them (each id once, in order). Written
 * out member by member, as every execution makes one: conditional spreads cost a runtime call each.
 */
function wsIds(messages: readonly WsServerMessage[]): ExecutionResult['ids'] {
  let connectionId: string | undefined;
  const seen = new Set<string>();
  for (const m of messages) {
    if (connectionId === undefined && m.connectionId) connectionId = m.connectionId;
    if (m.messageId) seen.add(m.messageId);
  }
  // A Set keeps the order ids were first seen in.
  const messageIds = [...seen];
  if (connectionId === undefined && messageIds.length === 0) return undefined;
  const ids: NonNullable<ExecutionResult['ids']> = {};
  if (connectionId !== undefined) ids.connectionId = connectionId;
  if (messageIds.length > 0) ids.messageIds = messageIds;
  return ids;
}
