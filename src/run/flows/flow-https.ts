import { formatMs, type EndedBy, type ExecutionResult, type FlowTest } from '../../core/flows/index.js';
import { expectedEndMs, httpsEndRule, httpsProgress, httpsWaitMs, type HttpsProgress, type PollHistory } from '../../core/runs/index.js';
import type { ExecutionLogEntry, TenantClient } from '../../core/model.js';
import { RoleflowError } from '../../core/errors.js';
import { DEFAULT_LIMITS, namedLimit } from '../../core/config/limits.js';
import { Deadline, executionEnd, interruptedProblem, realClock, strictEndProblem, type RunOptions } from './flow-shared.js';

/**
 * What the tenant reported for each flow's last finished HTTPS execution in a run: its step
 * latencies, by flow name. A later execution of the flow polls when they say it should be over.
 */
export type FlowPaces = Map<string, readonly number[]>;

/**
 * One execution of `test` over HTTPS: start the flow, then poll its execution log until the core's
 * end rule says it is over. Polls are spaced by a fifth of the time since the start (25ms to 1s),
 * and never sleep past the end of a quiet period, the moment `paces` says the flow should be over,
 * or the deadline; nothing sleeps after the last poll. The wall-clock runs from just before the
 * start request to the answer of the last poll. The start is sent once (the client re-sends it
 * only when it surely never reached the tenant): an error or a timeout on it ends the execution.
 */
export async function runHttps(
  client: TenantClient,
  test: FlowTest,
  inputs: Record<string, string>,
  options: RunOptions & { paces?: FlowPaces } = {},
): Promise<ExecutionResult> {
  const clock = options.clock ?? realClock;
  const paces = options.paces ?? new Map<string, readonly number[]>();
  const startedAt = clock.now();
  const deadline = new Deadline(clock, test.timeoutMs, options.signal);
  // `problem`: why it ended, as text or as the error a request failed with (whose code it keeps).
  let ids: ExecutionResult['ids'];
  const end = (status: ExecutionResult['status'], endedBy: EndedBy, problem?: unknown, steps?: ExecutionLogEntry[], at = clock.now()): ExecutionResult => {
    const result = executionEnd('https', test.flow, status, endedBy, problem);
    if (ids) result.ids = ids;
    if (steps) result.steps = steps;
    result.wallMs = at - startedAt;
    return result;
  };
  const unfinished = (why: 'timeout' | 'interrupted', steps?: ExecutionLogEntry[], at = clock.now()): ExecutionResult =>
    why === 'interrupted'
      ? end('error', 'interrupted', interruptedProblem(at - startedAt), steps, at)
      : end('error', 'timeout', steps ? timeoutText(test, steps) : `no answer to the start within ${formatMs(test.timeoutMs)}`, steps, at);

  try {
    const started = await deadline.race(client.startFlow(test.flow, inputs));
    if (!started.ok) return started.why === 'error' ? end('error', 'error', started.error) : unfinished(started.why);
    const { executionId, flowId } = started.value;
    ids = { flowId, executionId };
    const answeredStartAt = clock.now();
    const known = paces.get(test.flow);

    const rule = httpsEndRule(test);
    let history: PollHistory | undefined;
    let steps: ExecutionLogEntry[] = [];
    for (;;) {
      // The last poll lands on the deadline: its answer still counts if it comes promptly.
      const polled = await deadline.race(client.execLogs(executionId), LAST_POLL_GRACE_MS);
      if (!polled.ok) return polled.why === 'error' ? end('error', 'error', polled.error, steps) : unfinished(polled.why, steps);
      const answeredAt = clock.now();
      steps = polled.value;
      const over = overMessages(client, steps);
      if (over) return end('error', 'error', over.error, steps.slice(0, over.kept), answeredAt);
      const progress: HttpsProgress = httpsProgress(steps, history, rule, answeredAt);
      history = progress.history;
      if (progress.state === 'done') {
        rememberPace(paces, test.flow, steps);
        if (progress.by === 'quiet' && options.strictEnd) return end('error', 'quiet', strictEndProblem('https', rule.quietMs), steps, answeredAt);
        return end('ok', progress.by, undefined, steps, answeredAt);
      }
      if (progress.state === 'failed') return end('failed', 'failed_step', progress.reason, steps, answeredAt);
      const endsAt = expectedEndMs(known, rule, steps.length);
      const endDueInMs = endsAt === undefined ? undefined : answeredStartAt + endsAt - answeredAt;
      const waitMs = httpsWaitMs(progress, answeredAt - startedAt, deadline.msLeft(answeredAt), endDueInMs);
      if (waitMs === undefined) return unfinished('timeout', steps, answeredAt);
      if (!(await deadline.sleep(waitMs))) return unfinished('interrupted', steps);
    }
  } finally {
    deadline.clear();
  }
}

const LAST_POLL_GRACE_MS = 500;

/** A log longer than `limits.max_messages`: the execution's error, and how many steps it keeps. */
function overMessages(client: TenantClient, steps: readonly ExecutionLogEntry[]): { error: RoleflowError; kept: number } | undefined {
  const limits = client.target.limits ?? DEFAULT_LIMITS;
  if (steps.length <= limits.maxMessages) return undefined;
  const error = new RoleflowError(`the execution log holds ${steps.length} steps, more than ${namedLimit(limits, 'maxMessages')}`, 'too_large');
  return { error, kept: limits.maxMessages };
}

// Only a log whose every step carries its latency says when the flow ends.
function rememberPace(paces: FlowPaces, flow: string, steps: readonly ExecutionLogEntry[]): void {
  const latencies = steps.map((s) => s.latencyMs);
  if (latencies.length > 0 && latencies.every((ms) => Number.isFinite(ms) && ms >= 0)) paces.set(flow, latencies);
}

function timeoutText(test: FlowTest, steps: readonly ExecutionLogEntry[]): string {
  const rule = httpsEndRule(test);
  const logged = `${steps.length} step${steps.length === 1 ? '' : 's'} logged`;
  const wanted = rule.steps === undefined ? `a log unchanged for ${formatMs(rule.quietMs)}` : `${rule.steps} steps`;
  return `timed out after ${formatMs(test.timeoutMs)} waiting for ${wanted} (${logged})`;
}
