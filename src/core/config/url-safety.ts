import { RoleflowError } from '../errors.js';
import { displayUrl, redactUrl } from '../text/printed-url.js';

/**
 * Where a token may go (PRODUCT.md, "Security"): https/wss anywhere, plain http/ws only to
 * loopback. Pure, so the config is checked by `validate` and the flags before anything is sent.
 */
export type TenantUrlKind = 'http' | 'ws';

export type TenantUrlCheck =
  | { ok: true; url: URL }
  /** `invalid`: not a URL; `scheme`: neither the secure nor the plain scheme; `plain`: plain to a host that is not loopback. */
  | { ok: false; problem: 'invalid' | 'scheme' | 'plain'; url?: URL };

export function checkTenantUrl(raw: string, kind: TenantUrlKind): TenantUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  const { secure, plain } = SCHEMES[kind];
  if (url.protocol === secure || (url.protocol === plain && isLoopback(url.hostname))) return { ok: true, url };
  return { ok: false, problem: url.protocol === plain ? 'plain' : 'scheme', url };
}

export const SCHEMES: Record<TenantUrlKind, { secure: string; plain: string }> = {
  http: { secure: 'https:', plain: 'http:' },
  ws: { secure: 'wss:', plain: 'ws:' },
};

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The tenant URL, parsed, once we know a token may go there: https/wss anywhere, plain http/ws
 * only to loopback (PRODUCT.md, "Security"). Checked before anything is sent; a refusal is a
 * configuration error (exit 1).
 */
export function safeTenantUrl(raw: string, kind: TenantUrlKind, label: string): URL {
  const checked = checkTenantUrl(raw, kind);
  if (checked.ok) return checked.url;
  const { secure } = SCHEMES[kind];
  if (checked.problem === 'invalid' || checked.url === undefined) throw new RoleflowError(`${label} is not a valid URL: ${redactUrl(raw)}`, 'config');
  if (checked.problem === 'plain') {
    throw new RoleflowError(
      `refusing to send the token to ${displayUrl(checked.url)}: plain ${kind} is only allowed to loopback, use ${secure}//`,
      'config',
    );
  }
  throw new RoleflowError(`${label} must be a ${secure}// URL, got ${displayUrl(checked.url)}`, 'config');
}
