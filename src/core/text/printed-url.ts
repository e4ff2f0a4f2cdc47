/**
 * Tenant URLs as roleflow may print or record them, in one place: a URL can carry credentials
 * (user-info, `?token=`, `?signature=`) that must never reach a terminal, a report, a saved plan
 * or a log. Pure: used by the client's messages, the reports, the plan and the Action alike.
 */

import { MASK } from './redact.js';

/** Query parameters whose values are credentials, whoever put them in a URL. */
const SECRET_QUERY_KEY = /token|secret|password|passwd|api[-_]?key|signature|auth/i;

/** A URL or `path?query` with the values of credential-like query parameters masked. */
export function redactUrl(url: string): string {
  return url.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, key: string) =>
    SECRET_QUERY_KEY.test(decodeURIComponentSafe(key)) ? `${sep}${key}=${MASK}` : whole,
  );
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

/** A tenant URL as a report may hold it: no credentials, no credential-like query values. */
export function shownUrl(raw: string): string {
  if (raw.startsWith('embedded:')) return raw;
  try {
    return displayUrl(new URL(raw));
  } catch {
    return redactUrl(raw);
  }
}

/**
 * A base URL as a plan may record it: a plan is a file people attach to pull requests, so no
 * user-info, query or fragment survives. Text that is not a URL is kept as it is.
 */
export function planBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
