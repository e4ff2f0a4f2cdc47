import { RoleflowError } from '../core/errors.js';
import { checkTenantUrl, SCHEMES, type TenantUrlKind } from '../core/url-safety.js';
import { redactUrl } from '../core/redact-messages.js';

export { isLoopback } from '../core/url-safety.js';

/**
 * The tenant URL, parsed, once we know a token may go there: https/wss anywhere, plain http/ws
 * only to loopback (PRODUCT.md, "Security"). Checked before anything is sent; a refusal is a
 * configuration error (exit 1).
 */
export function safeTenantUrl(raw: string, kind: TenantUrlKind, label: string): URL {
  const checked = checkTenantUrl(raw, kind);
  if (checked.ok) return checked.url;
  const { secure } = SCHEMES[kind];
  if (checked.problem === 'invalid' || checked.url === undefined) throw new RoleflowError(`${label} is not a valid URL: ${redactUrl(raw)}`);
  if (checked.problem === 'plain') {
    throw new RoleflowError(
      `refusing to send the token to ${displayUrl(checked.url)}: plain ${kind} is only allowed to loopback, use ${secure}//`,
    );
  }
  throw new RoleflowError(`${label} must be a ${secure}// URL, got ${displayUrl(checked.url)}`);
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
