import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent } from './undici.js';
import { runWasmWithBaselineCompiler } from '../engine.js';
import { DEFAULT_LIMITS, namedLimit, type Limits } from '../core/config/limits.js';
import { RoleflowError } from '../core/errors.js';
import type { ClientOptions, HttpRequest, HttpResponse } from './exchange.js';
import { backoffMs, describeFailure, failureCode, failureKind, retryAfterMs, type NetworkFailure } from './http-errors.js';
import { displayUrl, redactUrl } from '../core/text/printed-url.js';
import { redactSecrets } from '../core/redact-messages.js';
import { safeTenantUrl } from '../core/config/url-safety.js';

export type { HttpRequest, HttpResponse } from './exchange.js';

/** When a failed attempt is sent again. */
export interface RetryPolicy {
  /** Re-send after a failure that may have reached the service (timeout, reset after sending). */
  resendUnknown: boolean;
  retryStatus(status: number): boolean;
}

/** Reads, updates, deletes: doing them twice is doing them once. */
export const IDEMPOTENT: RetryPolicy = { resendUnknown: true, retryStatus: (s) => s === 429 || s >= 500 };
/** Creates: only re-sent when the service surely did nothing (refused connection, 429, 503). */
export const NOT_IDEMPOTENT: RetryPolicy = { resendUnknown: false, retryStatus: (s) => s === 429 || s === 503 };
/**
 * Flow starts are sent once: a 5xx may come after the flow began (a second start would launch a
 * second AI execution, which costs money and cannot be looked up), and so may silence after
 * sending. Only a start that certainly never reached the tenant is sent again: a refused
 * connection, a failed DNS lookup (both never `sent`), or a 429 (with or without Retry-After).
 */
export const START_FLOW: RetryPolicy = { resendUnknown: false, retryStatus: (s) => s === 429 };



/** How long, in all, one request waits out a rate limit's Retry-After before it fails. */
const RATE_LIMIT_PATIENCE_MS = 120_000;

type Attempt = { kind: 'response'; status: number; text: string; retryAfter?: string } | { kind: 'too_large'; limit: string } | NetworkFailure;

/**
 * One keep-alive connection pool to the tenant's origin, and the retry loop. The token goes in
 * the Authorization header of requests to that origin only: paths are always below the base URL
 * and undici's `request` follows no redirects (a 3xx comes back as a status).
 */
export class HttpTransport {
  private readonly agent: Dispatcher;
  private readonly base: URL | RoleflowError;
  /** The base URL's origin, and its path without the trailing `/` (request paths go below it). */
  private readonly origin: string;
  private readonly basePath: string;
  /** Headers of requests without and with a JSON body, built once: undici only reads them. */
  private readonly headers: { bare: Record<string, string>; json: Record<string, string> };
  readonly secrets: readonly (string | undefined)[];
  private readonly sleep: (ms: number) => Promise<void>;

  private readonly limits: Limits;
  /** The wait the tenant's last 429 asked for, which every request sits out, and when it ends (performance.now()). */
  private pause: Promise<void> = Promise.resolve();
  private pauseEnds = 0;

  constructor(private readonly options: ClientOptions) {
    runWasmWithBaselineCompiler();
    this.secrets = [options.token];
    this.limits = options.target.limits ?? DEFAULT_LIMITS;
    this.base = safeOrError(options.target.baseUrl);
    this.origin = this.base instanceof URL ? this.base.origin : '';
    this.basePath = this.base instanceof URL ? this.base.pathname.replace(/\/+$/, '') : '';
    const bare: Record<string, string> = { accept: 'application/json', 'user-agent': 'roleflow' };
    if (options.token !== undefined) bare['authorization'] = `Bearer ${options.token}`;
    this.headers = { bare, json: { ...bare, 'content-type': 'application/json' } };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    const agentOptions = {
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: 64,
      connect: { timeout: Math.min(options.target.timeoutMs, 10_000) },
    };
    // Through the environment's proxy (tenant/proxy-env.ts): its values given, so only the command's
    // environment counts, never the process's.
    this.agent = options.proxy ? new EnvHttpProxyAgent({ ...agentOptions, ...options.proxy }) : new Agent(agentOptions);
  }

  /** The base URL as it may be printed. */
  get display(): string {
    return this.base instanceof URL ? displayUrl(this.base) : this.options.target.baseUrl;
  }

  /**
   * Sends `request`, retrying per `policy` with exponential backoff and full jitter (or the
   * service's Retry-After). Resolves with the last answer, whatever its status; rejects with a
   * RoleflowError when no answer came: code `no_answer` when one may have been lost after sending,
   * `unreachable` when nothing was sent.
   * A tenant that let one attempt time out gets one more at most: each wait is the whole timeout,
   * and all the configured retries of them would look like a hang (minutes of nothing).
   */
  async send(request: HttpRequest, policy: RetryPolicy): Promise<HttpResponse> {
    const base = this.base;
    if (!(base instanceof URL)) throw base;
    let afterUnknown = false;
    let attempts = this.options.target.retries + 1;
    // Waits the tenant asked for (429 + Retry-After) so far: patience, not failed attempts.
    let askedWaitMs = 0;
    for (let attempt = 1; ; attempt++) {
      // Another request was told to wait: this one waits too rather than be refused as well.
      await this.pause;
      const result = await this.attempt(request, attempt);
      // As large the next time: never sent again.
      if (result.kind === 'too_large') {
        const path = redactSecrets(request.path, this.secrets);
        throw new RoleflowError(`${request.method} ${path}: the answer is larger than ${result.limit}; it was not read (raise the limit in the config if it is expected)`, 'too_large');
      }
      if (result.kind === 'failure' && result.timedOut) attempts = Math.min(attempts, attempt + 1);
      // A rate limit that says how long to wait is waited out (up to RATE_LIMIT_PATIENCE_MS in all,
      // each wait counted as a second at least) without using up the retries, which are for failures.
      const asked = result.kind === 'response' && result.status === 429 && retryAfterMs(result.retryAfter) !== undefined ? backoffMs(attempt, result.retryAfter) : undefined;
      const patient = asked !== undefined && askedWaitMs + Math.max(asked, 1000) <= RATE_LIMIT_PATIENCE_MS;
      if (patient) attempts++;
      const last = attempt >= attempts;
      if (result.kind === 'response') {
        if (last || !policy.retryStatus(result.status)) {
          return { request, status: result.status, text: result.text, attempts: attempt, afterUnknown };
        }
        afterUnknown ||= result.status >= 500 && result.status !== 503;
        if (patient) {
          askedWaitMs += Math.max(asked, 1000);
          await this.pauseFor(asked);
        } else await this.sleep(backoffMs(attempt, result.retryAfter));
        continue;
      }
      if (last || !result.retryable || (result.sent && !policy.resendUnknown)) {
        const message = describeFailure(request, result, this.display, attempt, this.options.target.timeoutMs);
        throw new RoleflowError(redactSecrets(message, this.secrets), failureKind(result));
      }
      afterUnknown ||= result.sent;
      if (result.timedOut) {
        const waited = showDuration(this.options.target.timeoutMs);
        this.options.onRetry?.(
          `${request.method} ${redactSecrets(request.path, this.secrets)}: no response within ${waited}; trying again (${attempt + 1}/${attempts})`,
        );
      }
      await this.sleep(backoffMs(attempt, undefined));
    }
  }

  /** Waits `ms`, and holds every other request of this client until then too. */
  private pauseFor(ms: number): Promise<void> {
    const ends = performance.now() + ms;
    if (ends > this.pauseEnds) {
      this.pauseEnds = ends;
      this.pause = this.sleep(ms);
    }
    return this.pause;
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  private async attempt(request: HttpRequest, attempt: number): Promise<Attempt> {
    const search = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    // The time limit covers the whole exchange, answer body included. undici takes an
    // EventEmitter as the abort signal: far cheaper per request than an AbortController.
    const abort = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.emit('abort');
    }, this.options.target.timeoutMs);
    const onRequest = this.options.onRequest;
    const started = onRequest ? performance.now() : 0;
    // (A closure only for --verbose: none is made for each request otherwise.)
    const report =
      onRequest &&
      ((status: number | 'error'): void =>
        onRequest({
          method: request.method,
          path: redactSecrets(redactUrl(request.path + search), this.secrets),
          status,
          ms: Math.round(performance.now() - started),
          attempt,
        }));
    try {
      const response = await this.agent.request({
        origin: this.origin,
        path: this.basePath + request.path + search,
        method: request.method,
        headers: request.body === undefined ? this.headers.bare : this.headers.json,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: abort,
      });
      const key = request.executionLog && this.limits.maxExecutionBytes < this.limits.maxResponseBytes ? 'maxExecutionBytes' : 'maxResponseBytes';
      const text = await readBody(response, this.limits[key]);
      report?.(response.statusCode);
      if (text === undefined) return { kind: 'too_large', limit: namedLimit(this.limits, key) };
      const retryAfter = response.headers['retry-after'];
      // Member by member: a spread in the literal costs V8 a runtime call, for every answer.
      const answer: Attempt = { kind: 'response', status: response.statusCode, text };
      if (typeof retryAfter === 'string') answer.retryAfter = retryAfter;
      return answer;
    } catch (error) {
      report?.('error');
      return failureCode(error, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }
}

const UTF8 = new TextDecoder();

/**
 * The body as text, or undefined once it is larger than `max` bytes (said by its
 * Content-Length, or counted as it comes): the rest is not read, and the connection is dropped.
 */
async function readBody(response: Dispatcher.ResponseData, max: number): Promise<string | undefined> {
  const length = response.headers['content-length'];
  if (typeof length === 'string' && /^\d+$/.test(length)) {
    // HTTP's framing holds the body to its declared length: no counting needed.
    if (Number(length) <= max) return response.body.text();
    response.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      response.body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  // As undici's text(): UTF-8, a byte order mark dropped.
  return UTF8.decode(Buffer.concat(chunks, size));
}

/** `30s`, `1.5s`, `250ms`. */
export function showDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

function safeOrError(baseUrl: string): URL | RoleflowError {
  try {
    return safeTenantUrl(baseUrl, 'http', 'base_url');
  } catch (error) {
    return error as RoleflowError;
  }
}
