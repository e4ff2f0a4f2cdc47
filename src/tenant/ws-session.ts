import WebSocket from 'ws';
import { RoleflowError } from '../core/errors.js';
import { DEFAULT_LIMITS, namedLimit, type Limits } from '../core/config/limits.js';
import type { WsServerMessage, WsSession } from '../core/model.js';
import { oneLine, redactSecrets } from '../core/redact-messages.js';
import { onStop } from '../core/runs/stop-signal.js';
import { toWsMessage } from './decode.js';

type Waiter = {
  resolve: (m: WsServerMessage | undefined) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  stop?: AbortSignal;
};

/**
 * Messages are queued as they arrive, so none is lost between two calls of `next`. Why the session
 * ended is kept as text: the error (with its stack) is built only when someone is told of it, not
 * on every normal close.
 */
export class Session implements WsSession {
  private readonly queue = new Fifo<WsServerMessage | RoleflowError>();
  private readonly waiters: Waiter[] = [];
  private endedBecause: string | undefined;
  private endError: RoleflowError | undefined;
  private terminateTimer: NodeJS.Timeout | undefined;
  /**
   * The stop signals the session listens to, and how to stop listening: each once, until the
   * connection closes, rather than once per wait (`onStop`: one listener per signal for every session).
   */
  private readonly stops = new Map<AbortSignal, () => void>();
  private readonly onStop = (): void => {
    for (const waiter of this.waiters.filter((w) => w.stop?.aborted === true)) this.giveUp(waiter);
  };

  /** What this session (one execution) received: counted against `limits`. */
  private received = { messages: 0, bytes: 0 };

  constructor(
    private readonly socket: WebSocket,
    private readonly shown: string,
    private readonly secrets: readonly (string | undefined)[],
    private readonly limits: Limits = DEFAULT_LIMITS,
  ) {
    socket.on('message', (data: WebSocket.RawData) => {
      if (this.endedBecause !== undefined) return;
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      this.received.messages += 1;
      this.received.bytes += bytes.length;
      if (this.received.messages > limits.maxMessages) return this.overLimit('maxMessages', 'messages');
      if (this.received.bytes > limits.maxExecutionBytes) return this.overLimit('maxExecutionBytes', 'received');
      const text = bytes.toString('utf8');
      const message = toWsMessage(text);
      this.deliver(message ?? this.error(`the service sent a frame that is not a JSON object: ${oneLine(text, 120)}`));
    });
    // A frame larger than the execution may hold: ws refuses it (maxPayload) and closes.
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.overLimit('maxExecutionBytes', 'received', 'in one frame');
    });
    socket.on('close', (code: number, reason: Buffer) => {
      clearTimeout(this.terminateTimer);
      if (this.endedBecause === undefined) {
        const why = reason.length > 0 ? `: ${oneLine(reason.toString('utf8'), 120)}` : '';
        this.endedBecause = `connection to ${this.shown} closed by the service (code ${code}${why})`;
      }
      for (const waiter of this.waiters.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(this.ended());
      }
      for (const unlisten of this.stops.values()) unlisten();
      this.stops.clear();
    });
  }

  send(frame: Record<string, string>): void {
    if (this.socket.readyState !== WebSocket.OPEN) {
      throw this.endedBecause === undefined ? this.error(`connection to ${this.shown} is not open`) : this.ended();
    }
    // A failed write closes the socket, and 'close' rejects whoever waits: nothing to do here.
    this.socket.send(JSON.stringify(frame), () => undefined);
  }

  next(timeoutMs: number, stop?: AbortSignal): Promise<WsServerMessage | undefined> {
    const item = this.queue.shift();
    if (item instanceof RoleflowError) return Promise.reject(item);
    if (item !== undefined) return Promise.resolve(item);
    if (this.endedBecause !== undefined) return Promise.reject(this.ended());
    if (stop?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, timer: setTimeout(() => this.giveUp(waiter), timeoutMs) };
      // Only a call that waits listens: a message already queued costs no listener.
      if (stop !== undefined) {
        waiter.stop = stop;
        if (!this.stops.has(stop)) this.stops.set(stop, onStop(stop, this.onStop));
      }
      this.waiters.push(waiter);
    });
  }

  /** No message in time, or the wait's stop signal was aborted: the wait resolves empty. */
  private giveUp(waiter: Waiter): void {
    const at = this.waiters.indexOf(waiter);
    if (at === -1) return;
    this.waiters.splice(at, 1);
    clearTimeout(waiter.timer);
    waiter.resolve(undefined);
  }

  close(): void {
    this.endedBecause ??= `session with ${this.shown} was closed`;
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close(1000);
    // ws waits up to 30 s for the service's closing frame; a run must not hang on it.
    this.terminateTimer = setTimeout(() => this.socket.terminate(), 1000).unref();
  }

  /**
   * Past a limit: the execution ends with an error naming it (given to whoever reads next, after
   * what came before), nothing more is read, and the connection is dropped.
   */
  private overLimit(key: 'maxMessages' | 'maxExecutionBytes', what: string, where = 'in one execution'): void {
    if (this.endedBecause !== undefined) return;
    this.endedBecause = `more than ${namedLimit(this.limits, key)} ${what} ${where} from ${this.shown}: the rest was not read`;
    this.endError = new RoleflowError(redactSecrets(`WebSocket: ${this.endedBecause}`, this.secrets), 'too_large');
    this.deliver(this.endError);
    this.socket.terminate();
  }

  private deliver(item: WsServerMessage | RoleflowError): void {
    const waiter = this.waiters.shift();
    if (!waiter) {
      this.queue.push(item);
      return;
    }
    clearTimeout(waiter.timer);
    if (item instanceof RoleflowError) waiter.reject(item);
    else waiter.resolve(item);
  }

  /** The error of an ended session, built the first time it is needed. */
  private ended(): RoleflowError {
    return (this.endError ??= this.error(this.endedBecause ?? `connection to ${this.shown} is not open`));
  }

  /** What goes wrong in an open session: the service's doing (a bad frame, a closed connection). */
  private error(text: string): RoleflowError {
    return new RoleflowError(redactSecrets(`WebSocket ${text}`, this.secrets), 'tenant_error');
  }
}

/**
 * A first-in first-out queue whose `shift` costs the same however long it is. (`Array#shift`
 * moves every element of a large array: a service that sends tens of thousands of messages faster
 * than they are read made each read cost as much as the backlog.)
 */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // Drop the consumed front once it is most of the array: amortised constant time.
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
