import { STATUS_CODES } from 'node:http';
import { RoleflowError, type ErrorCode } from '../core/errors.js';
import type { TenantTarget } from '../core/model.js';
import type { HttpRequest, HttpResponse } from './exchange.js';
import { oneLine } from '../core/redact-messages.js';
import { displayUrl } from '../core/text/printed-url.js';

export interface NetworkFailure {
  kind: 'failure';
  code: string;
  detail: string;
  /** The request may have reached the service (anything but a failed connect). */
  sent: boolean;
  /** Worth another attempt (a certificate problem is not). */
  retryable: boolean;
  timedOut: boolean;
}

/** Connect-time failures: the request never left this machine, so re-sending is always safe. */
const NOT_SENT = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TLS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;
const INVALID = /INVALID_ARG|ERR_INVALID/;
/** The client's own pool was closed (a call after `close()`): nothing left this machine, nor will. */
const CLOSED = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

export function failureCode(error: unknown, timedOut: boolean): NetworkFailure {
  const code = timedOut ? 'ETIMEDOUT' : codeOf(error) ?? codeOf((error as { cause?: unknown })?.cause) ?? 'EUNKNOWN';
  const detail = error instanceof Error ? error.message : String(error);
  // A certificate problem or a request undici refuses to build (a token with a line break) will
  // not go better on another attempt.
  const hopeless = TLS.test(code) || INVALID.test(code) || CLOSED.has(code);
  return { kind: 'failure', code, detail, sent: !NOT_SENT.has(code) && !hopeless, retryable: !hopeless, timedOut };
}

export function describeFailure(
  request: HttpRequest,
  failure: NetworkFailure,
  base: string,
  attempts: number,
  timeoutMs: number,
): string {
  const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  if (TLS.test(failure.code)) {
    return `cannot reach ${base}: TLS certificate not trusted (${failure.code}); a custom CA goes in NODE_EXTRA_CA_CERTS`;
  }
  if (INVALID.test(failure.code)) return `${request.method} ${request.path}: not sent: ${oneLine(failure.detail, 160)}`;
  if (CLOSED.has(failure.code)) return `${request.method} ${request.path}: not sent: the client was already closed`;
  if (!failure.sent) return `cannot reach ${base}: ${failure.code}${after}`;
  const what = failure.timedOut
    ? `no response within ${timeoutMs} ms`
    : `connection lost (${failure.code}: ${oneLine(failure.detail, 120)})`;
  return `${request.method} ${request.path}: ${what}${after}`;
}

/**
 * The kind of a failed exchange: the tenant could not be reached (refused, DNS, TLS: nothing was
 * sent), or it was sent and no answer came; a request that could not even be made is `failed`.
 */
export function failureKind(failure: NetworkFailure): ErrorCode {
  if (TLS.test(failure.code)) return 'unreachable';
  if (INVALID.test(failure.code) || CLOSED.has(failure.code)) return 'failed';
  return failure.sent ? 'no_answer' : 'unreachable';
}

/** Exponential backoff with full jitter; the service's Retry-After (seconds or a date) wins, capped. */
export function backoffMs(attempt: number, retryAfter: string | undefined, random: () => number = Math.random): number {
  const asked = retryAfterMs(retryAfter);
  if (asked !== undefined) return Math.min(asked, RETRY_AFTER_CAP_MS);
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)));
}

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 5_000;
/** A tenant asking for minutes of patience gets 30 s; the run would look hung otherwise. */
const RETRY_AFTER_CAP_MS = 30_000;

export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Where the token of a request came from; undefined when none was sent. */
export interface TokenSource {
  tenant: string;
  baseUrl: string;
  /** The environment variable it was read from (absent for a token roleflow made itself). */
  tokenEnv?: string;
}

/**
 * `POST /admin/roles/create: 500 internal server error`, the one line a caller sees for a non-2xx.
 * A refused token (401, 403) also names the tenant, its base URL and the variable the token came
 * from, so the user knows which setting to fix; the token itself is never part of it.
 */
export function statusError(response: HttpResponse, token: TokenSource | undefined): RoleflowError {
  const { request, status } = response;
  const reason = STATUS_CODES[status]?.toLowerCase() ?? 'unexpected status';
  let text = `${request.method} ${request.path}: ${status} `;
  if (status >= 300 && status < 400) {
    text += `${reason}; redirects are not followed (the token only goes to base_url), check base_url`;
  } else {
    text += bodyMessage(response.text) ?? reason;
    if (status === 401 || status === 403) text += refusedToken(token);
  }
  if (response.attempts > 1) text += ` (after ${response.attempts} attempts)`;
  return new RoleflowError(text, status === 401 || status === 403 ? 'unauthorized' : refusesTheRequest(status) ? 'tenant_refused' : 'tenant_error');
}

/**
 * A 4xx that refuses the request itself (400, 413, 422, …): the same request gets the same answer.
 * Not a missing Role (404: the tenant changed), a conflict (409), a timeout or too many requests
 * (408, 425, 429): after those, a new plan from the tenant as it is may well succeed.
 */
function refusesTheRequest(status: number): boolean {
  return status >= 400 && status < 500 && ![404, 408, 409, 425, 429].includes(status);
}

/** Where the token sent to `target` came from; undefined when none was sent. */
export function tokenSource(target: TenantTarget, token: string | undefined): TokenSource | undefined {
  if (token === undefined) return undefined;
  return { tenant: target.name, baseUrl: target.baseUrl, ...(target.tokenEnv !== undefined && { tokenEnv: target.tokenEnv }) };
}

/** What a 401 or 403 adds to its line: who refused which token (never the token itself). */
export function refusedToken(token: TokenSource | undefined): string {
  if (token === undefined) return ' (no token was given)';
  const from = token.tokenEnv === undefined ? 'its token' : `the token in ${token.tokenEnv}`;
  // The URL was checked before the request was sent (see `safeTenantUrl`).
  return `: tenant ${JSON.stringify(token.tenant)} at ${displayUrl(new URL(token.baseUrl))} refused ${from}`;
}

/** The service's `{message}` (or a short plain-text body), one line, truncated. */
export function bodyMessage(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    const body = JSON.parse(trimmed) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const { message, error } = body as { message?: unknown; error?: unknown };
      const found = typeof message === 'string' ? message : typeof error === 'string' ? error : undefined;
      if (found !== undefined) return oneLine(found, 200) || undefined;
    }
    return oneLine(trimmed, 200);
  } catch {
    return trimmed.startsWith('<') ? undefined : oneLine(trimmed, 200);
  }
}

/** The body as JSON, or the endpoint named in a one-line error. */
export function jsonBody(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    const { request, status } = response;
    throw new RoleflowError(`${request.method} ${request.path}: ${status} but the body is not JSON`, 'tenant_error');
  }
}

function codeOf(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
