import {
  formatMs,
  httpsEndRule,
  httpsProgress,
  httpsWaitMs,
  type ExecutionResult,
  type FlowTest,
  type HttpsProgress,
  type PollHistory,
} from '../core/flows/index.js';
import type { ExecutionLogEntry, TenantClient } from '../core/model.js';
import { Deadline, messageOf, realClock, runError, wholeMs, type RunClock } from './run-shared.js';

/**
 * One execution of `test` over HTTPS: start the flow, then poll its execution log until the core's
 * end rule says it is over. Polls back off (50ms doubling to 1s) but never sleep past the end of a
 * quiet period or the deadline, and nothing sleeps after the last poll. The wall-clock runs from
 * just before the start request to the answer of the last poll.
 */
export async function runHttps(
  client: TenantClient,
  test: FlowTest,
  inputs: Record<string, string>,
  clock: RunClock = realClock,
): Promise<ExecutionResult> {
  const startedAt = clock.now();
  const deadline = new Deadline(clock, test.timeoutMs);
  try {
    return await startAndPoll(client, test, inputs, clock, startedAt, deadline);
  } finally {
    deadline.clear();
  }
}

async function startAndPoll(
  client: TenantClient,
  test: FlowTest,
  inputs: Record<string, string>,
  clock: RunClock,
  startedAt: number,
  deadline: Deadline,
): Promise<ExecutionResult> {
  const fail = (status: 'failed' | 'error', problem: string, steps?: ExecutionLogEntry[], at = clock.now()): ExecutionResult => ({
    transport: 'https',
    status,
    error: runError(test.flow, 'https', problem),
    ...(steps && { steps }),
    wallMs: at - startedAt,
  });

  const started = await deadline.race(client.startFlow(test.flow, inputs));
  if (!started.ok) return fail('error', started.timedOut ? `no answer to the start within ${formatMs(test.timeoutMs)}` : messageOf(started.error));
  const { executionId } = started.value;

  const rule = httpsEndRule(test);
  let history: PollHistory | undefined;
  let steps: ExecutionLogEntry[] = [];
  for (let attempt = 0; ; attempt++) {
    // The last poll lands on the deadline: its answer still counts if it comes promptly.
    const polled = await deadline.race(client.execLogs(executionId), LAST_POLL_GRACE_MS);
    if (!polled.ok) {
      return polled.timedOut
        ? fail('error', timeoutText(test, steps), steps)
        : fail('error', messageOf(polled.error), steps);
    }
    const answeredAt = clock.now();
    steps = polled.value;
    const progress: HttpsProgress = httpsProgress(steps, history, rule, answeredAt);
    history = progress.history;
    if (progress.state === 'done') return { transport: 'https', status: 'ok', steps, wallMs: answeredAt - startedAt };
    if (progress.state === 'failed') return fail('failed', progress.reason, steps, answeredAt);
    const waitMs = httpsWaitMs(progress, attempt, deadline.msLeft(answeredAt));
    if (waitMs === undefined) return fail('error', timeoutText(test, steps), steps, answeredAt);
    await clock.sleep(wholeMs(waitMs));
  }
}

const LAST_POLL_GRACE_MS = 500;

function timeoutText(test: FlowTest, steps: readonly ExecutionLogEntry[]): string {
  const rule = httpsEndRule(test);
  const logged = `${steps.length} step${steps.length === 1 ? '' : 's'} logged`;
  const wanted = rule.steps === undefined ? `a log unchanged for ${formatMs(rule.quietMs)}` : `${rule.steps} steps`;
  return `timed out after ${formatMs(test.timeoutMs)} waiting for ${wanted} (${logged})`;
}
