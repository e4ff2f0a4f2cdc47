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
