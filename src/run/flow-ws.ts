import { formatMs, wsEndRule, wsOutputs, wsProgress, type ExecutionResult, type FlowTest, type WsEndRule } from '../core/flows/index.js';
import type { TenantClient, WsServerMessage, WsSession } from '../core/model.js';
import { messageOf, realClock, runError, wholeMs, withDeadline, type RunClock } from './flow-shared.js';

/**
 * One execution of `test` over the WebSocket: send `{action: "message", service, ...inputs}`,
 * expect an ack first, then read `completed` messages until the core's end rule says it is over
 * (a node, a number of messages, or a quiet period that restarts with every message), within the
 * test's timeout. Every message is kept; the outputs are the last completed message's. The
 * wall-clock runs from just before opening the connection to the last message received.
 */
export async function runWs(
  client: TenantClient,
  test: FlowTest,
  inputs: Record<string, string>,
  clock: RunClock = realClock,
): Promise<ExecutionResult> {
  const run = new WsRun(test, clock);
  const opening = client.openWs();
  const opened = await withDeadline(opening, run.msLeft());
  if (!opened.ok) {
    if (!opened.timedOut) return run.end('error', messageOf(opened.error));
    // A connection that opens after we gave up is closed at once.
    opening.then((late) => late.close(), () => undefined);
    return run.timedOut('the connection to open');
  }
  try {
    return await run.converse(opened.value, inputs);
  } finally {
    opened.value.close();
  }
}

class WsRun {
  readonly messages: WsServerMessage[] = [];
  private readonly startedAt: number;
  private readonly deadline: number;
  /** When the last message arrived: the end of the wall-clock once the flow is over. */
  private lastAt: number;

  constructor(
    private readonly test: FlowTest,
    private readonly clock: RunClock,
  ) {
    this.startedAt = clock.now();
    this.lastAt = this.startedAt;
    this.deadline = this.startedAt + test.timeoutMs;
  }

  msLeft(): number {
    return this.deadline - this.clock.now();
  }

  async converse(session: WsSession, inputs: Record<string, string>): Promise<ExecutionResult> {
    try {
      // The frame's own members last: an input cannot overwrite them.
      session.send({ ...inputs, action: 'message', service: this.test.flow });
    } catch (error) {
      return this.end('error', messageOf(error));
    }
    const first = await nextMessage(session, this.msLeft());
    if (first instanceof Error) return this.end('error', `${first.message} before an ack`);
    if (first === undefined) return this.timedOut('an ack');
    this.receive(first);
    if (first.state !== 'ack') return this.end('error', `expected an ack first, got ${describeMessage(first)}`, this.lastAt);

    const rule = wsEndRule(this.test);
    for (;;) {
      const now = this.clock.now();
      const progress = wsProgress(this.messages, rule, now - this.lastAt);
      if (progress.state === 'done') return this.end('ok', undefined, this.lastAt);
      if (progress.state === 'failed') return this.end('failed', progress.reason, this.lastAt);
      const left = this.deadline - now;
      if (left <= 0) return this.timedOut(waitingFor(rule, this.messages));
      const next = await nextMessage(session, Math.min(progress.quietEndsInMs ?? left, left));
      if (next instanceof Error) {
        // With no node or count to wait for, a service closing the connection after its
        // completed messages has said it is finished as clearly as a quiet period would.
        const quietRule = rule.node === undefined && rule.messages === undefined;
        if (quietRule && completedCount(this.messages) > 0) return this.end('ok', undefined, this.lastAt);
        return this.end('error', `${next.message} before the flow finished (${completedCount(this.messages)} completed messages)`);
      }
      if (next !== undefined) this.receive(next);
    }
  }

  timedOut(waiting: string): ExecutionResult {
    return this.end('error', `timed out after ${formatMs(this.test.timeoutMs)} waiting for ${waiting}`);
  }

  end(status: ExecutionResult['status'], problem?: string, at = this.clock.now()): ExecutionResult {
    const outputs = wsOutputs(this.messages);
    return {
      transport: 'ws',
      status,
      ...(problem !== undefined && { error: runError(this.test.flow, 'ws', problem) }),
      ...(outputs !== undefined && { outputs }),
      messages: this.messages,
      wallMs: at - this.startedAt,
    };
  }

  private receive(message: WsServerMessage): void {
    this.messages.push(message);
    this.lastAt = this.clock.now();
  }
}

/** The next message, `undefined` when none came in time, or the error of a dropped connection. */
async function nextMessage(session: WsSession, ms: number): Promise<WsServerMessage | undefined | Error> {
  try {
    return await session.next(wholeMs(ms));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function describeMessage(m: WsServerMessage): string {
  const text = m.messageText.length > 160 ? `${m.messageText.slice(0, 159)}…` : m.messageText;
  return `a message with state ${JSON.stringify(m.state)} and statusCode ${String(m.statusCode)}${text ? `: ${text}` : ''}`;
}

function waitingFor(rule: WsEndRule, messages: readonly WsServerMessage[]): string {
  const got = `${completedCount(messages)} completed messages so far`;
  if (rule.node !== undefined) return `the completed message of node "${rule.node}" (${got})`;
  if (rule.messages !== undefined) return `${rule.messages} completed messages (${got})`;
  return `a completed message and ${formatMs(rule.quietMs)} of quiet (${got})`;
}

function completedCount(messages: readonly WsServerMessage[]): number {
  return messages.filter((m) => m.state === 'completed').length;
}
