import { RoleflowError } from '../core/errors.js';
import { redactUrl } from './redact.js';

/**
 * The tenant URL, parsed, once we know a token may go there: https/wss anywhere, plain http/ws
 * only to loopback (PRODUCT.md, "Security"). Checked before anything is sent.
 */
export function safeTenantUrl(raw: string, kind: 'http' | 'ws', label: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RoleflowError(`${label} is not a valid URL: ${redactUrl(raw)}`);
  }
  const [secure, plain] = kind === 'http' ? ['https:', 'http:'] : ['wss:', 'ws:'];
  if (url.protocol === secure) return url;
  if (url.protocol === plain) {
    if (isLoopback(url.hostname)) return url;
    throw new RoleflowError(
      `refusing to send the token to ${displayUrl(url)}: plain ${kind} is only allowed to loopback, use ${secure}//`,
    );
  }
  throw new RoleflowError(`${label} must be a ${secure}// URL, got ${displayUrl(url)}`);
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A URL as it may be printed: no credentials, no credential-like query values, no fragment. */
export function displayUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  const text = copy.search ? copy.href : `${copy.origin}${copy.pathname.replace(/\/+$/, '')}`;
  return redactUrl(text);
}
