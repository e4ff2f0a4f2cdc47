import { performance } from 'node:perf_hooks';
import type { ExecutionResult, Transport } from '../core/flows/index.js';

/** The runners' sense of time; tests may pass their own. */
export interface RunClock {
  /** Milliseconds, monotonic (performance.now()). */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: RunClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const TRANSPORT_LABEL: Record<Transport, string> = { https: 'HTTPS', ws: 'WebSocket' };

/** Every runner error starts with the flow and the transport, so a line in any report says which. */
export function runError(flow: string, transport: Transport, problem: string): string {
  return `flow "${flow}" over ${TRANSPORT_LABEL[transport]}: ${problem}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type Deadlined<T> = { ok: true; value: T } | { ok: false; timedOut: true } | { ok: false; timedOut: false; error: unknown };

const TIMED_OUT = { ok: false, timedOut: true } as const;

/**
 * `promise`, unless `ms` pass first. The client's own per-request timeout is the tenant's
 * (30s by default, and retries come on top): a test's shorter timeout must still end the
 * execution on time. A late rejection is swallowed, so nothing is left unhandled.
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<Deadlined<T>> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Deadlined<T>>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), wholeMs(ms));
  });
  try {
    return await Promise.race([settle(promise), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The end of one execution, as one timer that every request of the execution races (instead of
 * a timer per request, on top of the client's own). `clear()` once the execution is over.
 */
export class Deadline {
  private readonly at: number;
  private timer: NodeJS.Timeout | undefined;
  private expired: Promise<typeof TIMED_OUT> | undefined;

  constructor(
    private readonly clock: RunClock,
    timeoutMs: number,
  ) {
    this.at = clock.now() + timeoutMs;
  }

  msLeft(now = this.clock.now()): number {
    return this.at - now;
  }

  /** `promise`, unless the deadline passes first; with less than `graceMs` left, it has `graceMs`. */
  race<T>(promise: Promise<T>, graceMs = 0): Promise<Deadlined<T>> {
    const left = this.msLeft();
    if (left < graceMs) return withDeadline(promise, graceMs);
    this.expired ??= new Promise((resolve) => {
      this.timer = setTimeout(() => resolve(TIMED_OUT), wholeMs(left));
    });
    return Promise.race([settle(promise), this.expired]);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

function settle<T>(promise: Promise<T>): Promise<Deadlined<T>> {
  return promise.then(
    (value): Deadlined<T> => ({ ok: true, value }),
    (error: unknown): Deadlined<T> => ({ ok: false, timedOut: false, error }),
  );
}

/** Node keeps one timer list per distinct duration: whole milliseconds let timers share them. */
export function wholeMs(ms: number): number {
  return Math.max(0, Math.ceil(ms));
}

/**
 * Why the tenant as a whole cannot run tests (unreachable, or refusing the token), read from a
 * runner's error; undefined for a problem of one flow. The run then stops with exit 1 instead of
 * reporting every test as failed. The texts are those of src/tenant/http-errors.ts and ws-session.ts.
 */
export function tenantProblem(result: ExecutionResult): string | undefined {
  const error = result.status === 'error' ? result.error : undefined;
  if (error === undefined) return undefined;
  if (/: cannot reach |: WebSocket upgrade refused: 40[13]\b|: (GET|POST|DELETE) \S+: 40[13] /.test(error)) {
    return error.replace(/^flow "[^"]*" over \w+: /, '');
  }
  return undefined;
}
