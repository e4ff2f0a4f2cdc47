import WebSocket from 'ws';
import { RoleflowError, type ErrorCode } from '../core/errors.js';
import { DEFAULT_LIMITS } from '../core/config/limits.js';
import type { TenantTarget, WsSession } from '../core/model.js';
import { refusedToken, tokenSource } from './http-errors.js';
import { displayUrl, redactUrl } from '../core/text/printed-url.js';
import { oneLine, redactSecrets } from '../core/redact-messages.js';
import { safeTenantUrl } from '../core/config/url-safety.js';
import { proxyFor, type ProxySettings } from './proxy-env.js';
import { tunnelAgent } from './proxy-tunnel.js';
import { Session } from './ws-session.js';

/** `--verbose`: the line of one connection, as the client's request lines are. */
export type ConnectionLine = { method: 'GET'; path: string; status: number | 'error'; ms: number; attempt: number };

/**
 * Opens the tenant's WebSocket. The token goes in `Authorization: Bearer` or, with
 * `wsAuth: 'query'`, as `?token=`; either way it never appears in a message (the URL is printed
 * as configured, before the token is added). Redirects are not followed: a 3xx is a refusal.
 * `onRequest` hears of the upgrade once it is answered (101, or the refusal's status) or fails,
 * with the path and a query whose credentials are masked.
 */
export function openWsSession(target: TenantTarget, token: string | undefined, onRequest?: (line: ConnectionLine) => void, proxy?: ProxySettings): Promise<WsSession> {
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

  // Through the proxy the HTTP requests take (tenant/proxy-env.ts): a CONNECT tunnel, the token inside it.
  const via = proxy === undefined ? undefined : proxyFor(new URL(checked.href), proxy);
  let socket: WebSocket;
  try {
    // No `handshakeTimeout`: ws makes it a timeout of the upgrade request, which Node keeps by
    // re-arming a timer at every read and write of the socket (~100,000 instructions a connection,
    // counted with callgrind); the handshake's own timer below does the same once.
    socket = new WebSocket(url, {
      headers,
      followRedirects: false,
      perMessageDeflate: false,
      ...(via && { agent: tunnelAgent(via, checked.href.startsWith('wss:')) }),
      // No frame larger than an execution may hold is read (the session names the limit).
      maxPayload: (target.limits ?? DEFAULT_LIMITS).maxExecutionBytes,
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
    // A handshake that never completes counts as unreachable, like a refused connection.
    const handshake = setTimeout(() => fail(`cannot reach ${shown}: no WebSocket handshake within ${target.timeoutMs} ms`, 'unreachable'), target.timeoutMs);
    const fail = (message: string, code: ErrorCode, status: ConnectionLine['status'] = 'error') => {
      if (settled) return;
      settled = true;
      clearTimeout(handshake);
      log(status);
      reject(new RoleflowError(redactSecrets(message, secrets), code));
      socket.terminate();
    };
    // Stays attached for the socket's life: 'error' is always followed by 'close', which the
    // session turns into a rejection, so no error is ever unhandled.
    socket.on('error', (error: Error & { code?: string }) => {
      fail(`cannot reach ${shown}: ${error.code ?? oneLine(error.message, 120)}`, 'unreachable');
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
      clearTimeout(handshake);
      log(101);
      resolve(new Session(socket, shown, secrets, target.limits));
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
