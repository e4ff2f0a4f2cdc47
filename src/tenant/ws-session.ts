import WebSocket from 'ws';
import { RoleflowError, type ErrorCode } from '../core/errors.js';
import type { TenantTarget, WsServerMessage, WsSession } from '../core/model.js';
import { refusedToken, tokenSource } from './http-errors.js';
import { toWsMessage } from './decode.js';
import { displayUrl, redactUrl } from '../core/printed-url.js';
import { oneLine, redactSecrets } from '../core/redact-messages.js';
import { safeTenantUrl } from '../core/url-safety.js';
import { onStop } from '../core/runs/stop-signal.js';

/** `--verbose`: the line of one connection, as the client's request lines are. */
export type ConnectionLine = { method: 'GET'; path: string; status: number | 'error'; ms: number; attempt: number };

/**
 * Opens the tenant's WebSocket. The token goes in `Authorization: Bearer` or, with
 * `wsAuth: 'query'`, as `?token=`; either way it never appears in a message (the URL is printed
 * as configured, before the token is added). Redirects are not followed: a 3xx is a refusal.
 * `onRequest` hears of the upgrade once it is answered (101, or the refusal's status) or fails,
 * with the path and a query whose credentials are masked.
 */
export function openWsSession(target: TenantTarget, token: string | undefined, onRequest?: (line: ConnectionLine) => void): Promise<WsSession> {
  if (target.wsUrl === undefined) {
    return Promise.reject(new RoleflowError(`tenant ${target.name} has no ws_url: the WebSocket transport is not available`));
  }
  let checked: CheckedUrl;
  try {
    checked = checkedWsUrl(target.wsUrl);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  const { shown } = checked;
  const secrets = [token];
  const headers: Record<string, string> = {};
  let url: URL | string = checked.href;
  if (token !== undefined && target.wsAuth === 'query') {
    url = new URL(checked.href);
    url.searchParams.set('token', token);
  } else if (token !== undefined) headers.authorization = `Bearer ${token}`;

  let socket: WebSocket;
  try {
    socket = new WebSocket(url, {
      headers,
      handshakeTimeout: target.timeoutMs,
      followRedirects: false,
      perMessageDeflate: false,
      maxPayload: 64 * 1024 * 1024,
    });
  } catch (error) {
    // Node refuses to build the upgrade request (a token with a line break): nothing was sent.
    const why = oneLine(error instanceof Error ? error.message : String(error), 160);
    return Promise.reject(new RoleflowError(redactSecrets(`cannot open ${shown}: ${why}`, secrets), 'failed'));
  }
  const startedAt = performance.now();
  const log = (status: ConnectionLine['status']) => {
    if (onRequest === undefined) return;
    const sent = typeof url === 'string' ? new URL(url) : url;
    onRequest({ method: 'GET', path: redactSecrets(redactUrl(sent.pathname + sent.search), secrets), status, ms: performance.now() - startedAt, attempt: 1 });
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string, code: ErrorCode, status: ConnectionLine['status'] = 'error') => {
      if (settled) return;
      settled = true;
      log(status);
      reject(new RoleflowError(redactSecrets(message, secrets), code));
      socket.terminate();
    };
    // Stays attached for the socket's life: 'error' is always followed by 'close', which the
    // session turns into a rejection, so no error is ever unhandled.
    socket.on('error', (error: Error & { code?: string }) => {
      const reason = /handshake has timed out/i.test(error.message)
        ? `no WebSocket handshake within ${target.timeoutMs} ms`
        : (error.code ?? oneLine(error.message, 120));
      // A handshake that never completes counts as unreachable, like a refused connection.
      fail(`cannot reach ${shown}: ${reason}`, 'unreachable');
    });
    socket.once('unexpected-response', (request, response) => {
      response.resume();
      request.destroy();
      const unauthorized = response.statusCode === 401 || response.statusCode === 403;
      const refused = unauthorized ? refusedToken(tokenSource(target, token)) : '';
      const message = `WebSocket upgrade refused: ${response.statusCode} ${response.statusMessage ?? ''}`.trimEnd() + ` (${shown})${refused}`;
      fail(message, unauthorized ? 'unauthorized' : 'tenant_error', response.statusCode ?? 'error');
    });
    socket.once('open', () => {
      settled = true;
      log(101);
      resolve(new Session(socket, shown, secrets));
    });
  });
}

type CheckedUrl = { href: string; shown: string };

/** Each ws_url is checked and made printable once, not for every connection of a run. */
const checkedUrls = new Map<string, CheckedUrl>();

function checkedWsUrl(raw: string): CheckedUrl {
  let checked = checkedUrls.get(raw);
  if (checked === undefined) {
    const url = safeTenantUrl(raw, 'ws', 'ws_url');
    checked = { href: url.href, shown: displayUrl(url) };
    checkedUrls.set(raw, checked);
  }
  return checked;
}

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
class Session implements WsSession {
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

  constructor(
    private readonly socket: WebSocket,
    private readonly shown: string,
    private readonly secrets: readonly (string | undefined)[],
  ) {
    socket.on('message', (data: WebSocket.RawData) => {
      const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
      const message = toWsMessage(text);
      this.deliver(message ?? this.error(`the service sent a frame that is not a JSON object: ${oneLine(text, 120)}`));
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
