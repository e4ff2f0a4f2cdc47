import type { TenantTarget } from '../core/model.js';
import type { ProxySettings } from './proxy-env.js';

/**
 * The shapes the tenant adapter passes between its parts: how a client is configured, and one
 * request and its answer. Kept apart so the transport, its error wording and the client import
 * them without importing one another in a circle.
 */

export interface ClientOptions {
  target: TenantTarget;
  /** From the environment, never from flags or config. */
  token: string | undefined;
  /** For --verbose: one call per attempt; `path` has query secrets redacted. */
  onRequest?: (line: { method: string; path: string; status: number | 'error'; ms: number; attempt: number }) => void;
  /**
   * Told in one line (no secrets) of each attempt sent again after a request got no answer in
   * time: the CLI prints it even without --verbose, since a silent wait looks like a hang.
   */
  onRetry?: (line: string) => void;
  /** The proxies to reach the tenant through (`proxySettings` of the environment); none: direct. */
  proxy?: ProxySettings;
  /** Test hook: replaces the backoff's sleeping (default: real timers). */
  sleep?: (ms: number) => Promise<void>;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The interface path (`/admin/roles/get`), below the tenant's base URL. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** An execution's log: its answer is held to `limits.max_execution_bytes` too. */
  executionLog?: true;
}

export interface HttpResponse {
  request: HttpRequest;
  status: number;
  text: string;
  attempts: number;
  /** An earlier attempt may have been carried out by the service (timeout, reset, 5xx). */
  afterUnknown: boolean;
}
