import { RoleflowError } from '../core/errors.js';

/**
 * The proxies a tenant is reached through, from the environment as curl and undici read it:
 * `https_proxy`/`HTTPS_PROXY` for https and wss, `http_proxy`/`HTTP_PROXY` for http and ws (and
 * for https when no HTTPS one is set), `ALL_PROXY` for both when neither is, and `no_proxy`/
 * `NO_PROXY` for the hosts reached directly. HTTP goes through undici's EnvHttpProxyAgent with
 * these values; a WebSocket through `tunnelAgent` (proxy-tunnel.ts). Both tunnel with CONNECT, so the tenant's
 * token travels inside the tunnel to the tenant: the proxy sees only its own credentials (from
 * the proxy URL), never the token.
 */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** The settings of `env`; undefined when no proxy is set. */
export function proxySettings(env: Record<string, string | undefined>): ProxySettings | undefined {
  const read = (name: string) => env[name.toLowerCase()] || env[name] || '';
  const httpsProxy = read('HTTPS_PROXY');
  const httpName = read('HTTP_PROXY') || httpsProxy ? 'HTTP_PROXY' : 'ALL_PROXY';
  const httpProxy = read(httpName);
  if (!httpProxy && !httpsProxy) return undefined;
  if (httpProxy) checkProxyUrl(httpProxy, httpName);
  if (httpsProxy) checkProxyUrl(httpsProxy, 'HTTPS_PROXY');
  return { httpProxy, httpsProxy, noProxy: read('NO_PROXY') };
}

function checkProxyUrl(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RoleflowError(`${name} is not a URL: set it to http://HOST:PORT (or unset it)`, 'config');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `protocol//host`: no credentials, and `origin` is "null" for a scheme URL does not know.
    throw new RoleflowError(`${name} ${url.protocol}//${url.host}: roleflow reaches a tenant through an http:// or https:// proxy only; set HTTPS_PROXY to one, or unset ${name}`, 'config');
  }
}

/**
 * The proxy for `url` under `settings`, or undefined to go direct: NO_PROXY as undici reads it
 * (`*` for every host; else host names, `.suffix` or `*.suffix` for subdomains, an optional
 * `:port`; loopback is not special), so a WebSocket goes the way the HTTP requests go.
 */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80);
  const noProxy = settings.noProxy.trim();
  if (noProxy === '*') return undefined;
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const proxy = (secure && settings.httpsProxy) || settings.httpProxy;
  return proxy ? new URL(proxy) : undefined;
}
