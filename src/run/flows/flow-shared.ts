import { performance } from 'node:perf_hooks';
import { formatMs, type EndedBy, type ExecutionResult, type Transport } from '../../core/flows/index.js';
import { RoleflowError } from '../../core/errors.js';
import { messageOf } from '../../core/redact-messages.js';
import { onStop } from '../../core/runs/stop-signal.js';

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

/** How one execution is run, besides the test: the same for every execution of a run. */
export interface RunOptions {
  clock?: RunClock;
  /** Aborted when the run is interrupted (SIGINT/SIGTERM): the execution ends at once, `interrupted`. */
  signal?: AbortSignal;
  /** `--strict-end`: an execution that only quiet says is over is an error, not a pass. */
  strictEnd?: boolean;
}

const TRANSPORT_LABEL: Record<Transport, string> = { https: 'HTTPS', ws: 'WebSocket' };

/** Every runner error starts with the flow and the transport, so a line in any report says which. */
export function runError(flow: string, transport: Transport, problem: string): string {
  return `flow "${flow}" over ${TRANSPORT_LABEL[transport]}: ${problem}`;
}

/**
 * The members every execution's result starts with, in this order (built member by member: a
 * literal's members after a spread cost V8 a runtime call each). `problem`, why it ended, is text
 * or the error a request failed with, whose code the result keeps.
 */
export function executionEnd(transport: Transport, flow: string, status: ExecutionResult['status'], endedBy: EndedBy, problem?: unknown): ExecutionResult {
  const result = { transport, status, endedBy } as ExecutionResult;
  if (problem !== undefined) result.error = runError(flow, transport, messageOf(problem));
  if (problem instanceof RoleflowError) result.errorCode = problem.code;
  return result;
}

/**
 * Why an execution ended by quiet is an error under `--strict-end`: nothing said it was over.
 * `closed`: the service closed the connection after its completed messages, rather than falling quiet.
 */
export function strictEndProblem(transport: Transport, quietMs: number, closed = false): string {
  const how = closed ? 'the service closed the connection' : `${formatMs(quietMs)} of quiet`;
  const rule = transport === 'https' ? 'until.steps (or expect.steps.count)' : 'until.node or until.messages';
  return `ended by ${how}, not by an until rule (--strict-end): set ${rule} to say when the flow is over`;
}

/** The error of an execution the run's interruption ended. */
export function interruptedProblem(elapsedMs: number): string {
  return `interrupted after ${formatMs(Math.round(elapsedMs))}: the run was stopped (SIGINT/SIGTERM)`;
}


/** A request raced against the end of its execution: its value, or why it has none. */
export type Deadlined<T> = { ok: true; value: T } | { ok: false; why: 'timeout' | 'interrupted' } | { ok: false; why: 'error'; error: unknown };

const TIMED_OUT = { ok: false, why: 'timeout' } as const;
const INTERRUPTED = { ok: false, why: 'interrupted' } as const;

/**
 * The end of one execution, as one timer that every request of the execution races (instead of
 * a timer per request, on top of the client's own), and the run's interruption, which ends every
 * wait at once. `clear()` once the execution is over.
 */
export class Deadline {
  private readonly at: number;
  private timer: NodeJS.Timeout | undefined;
  private expired: Promise<typeof TIMED_OUT> | undefined;
  private readonly stopped: Promise<typeof INTERRUPTED> | undefined;
  private readonly unlisten: (() => void) | undefined;

  constructor(
    private readonly clock: RunClock,
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.at = clock.now() + timeoutMs;
    if (signal !== undefined) {
      let stop!: () => void;
      this.stopped = new Promise((resolve) => (stop = () => resolve(INTERRUPTED)));
      if (signal.aborted) stop();
      else this.unlisten = onStop(signal, stop);
    }
  }

  get interrupted(): boolean {
    return this.signal?.aborted === true;
  }

  msLeft(now = this.clock.now()): number {
    return this.at - now;
  }

  /**
   * `promise`, unless the deadline passes or the run is interrupted first; with less than
   * `graceMs` left, it has `graceMs`.
   */
  race<T>(promise: Promise<T>, graceMs = 0): Promise<Deadlined<T>> {
    const left = this.msLeft();
    const racers: Promise<Deadlined<T>>[] = [settle(promise)];
    if (this.stopped) racers.push(this.stopped);
    if (left < graceMs) {
      racers.push(after(graceMs));
    } else {
      racers.push(
        (this.expired ??= new Promise((resolve) => {
          this.timer = setTimeout(() => resolve(TIMED_OUT), wholeMs(left));
        })),
      );
    }
    return Promise.race(racers);
  }

  /** Sleep `ms` on the run's clock; false when the run was interrupted meanwhile. */
  async sleep(ms: number): Promise<boolean> {
    const slept = this.clock.sleep(wholeMs(ms)).then(() => true);
    return this.stopped ? Promise.race([slept, this.stopped.then(() => false)]) : slept;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.unlisten?.();
  }
}

/** Resolves TIMED_OUT after `ms`; its timer does not keep the process alive. */
function after(ms: number): Promise<typeof TIMED_OUT> {
  return new Promise((resolve) => setTimeout(() => resolve(TIMED_OUT), wholeMs(ms)).unref());
}

function settle<T>(promise: Promise<T>): Promise<Deadlined<T>> {
  return promise.then(
    (value): Deadlined<T> => ({ ok: true, value }),
    (error: unknown): Deadlined<T> => ({ ok: false, why: 'error', error }),
  );
}

/** Node keeps one timer list per distinct duration: whole milliseconds let timers share them. */
export function wholeMs(ms: number): number {
  return Math.max(0, Math.ceil(ms));
}

/**
 * Why the tenant as a whole cannot run tests (unreachable, or refusing the token), read from a
 * runner's error; undefined for a problem of one flow. The run then stops with exit 1 instead of
 * reporting every test as failed. Decided by the error's code (`unreachable`, `unauthorized`), never its text.
 */
export function tenantProblem(result: ExecutionResult): string | undefined {
  if (result.status !== 'error' || result.error === undefined) return undefined;
  if (result.errorCode !== 'unreachable' && result.errorCode !== 'unauthorized') return undefined;
  return result.error.replace(/^flow "[^"]*" over \w+: /, '');
}
