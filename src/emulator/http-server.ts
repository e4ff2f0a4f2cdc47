import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { RoleflowError } from '../core/errors.js';
import { bearerToken, type Faults, type RateLimit } from './auth-and-faults.js';
import { message, readJsonBody, type Answer, type RequestLog, type RequestRecord, type Route, type RouteRequest } from './http-kit.js';

export interface HttpHandlerOptions {
  routes: readonly Route[];
  /** `"METHOD /path"` forms this tenant lacks: answered like unknown paths. */
  disable: readonly string[];
  tokenMatches: (candidate: string | undefined) => boolean;
  faults: Faults;
  /** Requests over the rate are answered 429 with Retry-After, after the faults, before the token. */
  rateLimit?: RateLimit | undefined;
  latencyMs: number;
  maxBodyBytes: number;
  log: RequestLog;
  /** Told of every request once it is answered (or dropped: status 0); the path has no query. */
  onRequest?: ((line: RequestLine) => void) | undefined;
}

/** A request as the log holds it, with how long it took to answer. */
export interface RequestLine extends RequestRecord {
  ms: number;
}

/**
 * Every HTTP request: faults first (a failing gateway answers before anything happens), then the
 * rate limit, then the token, then the route. Errors are `{message}` bodies; nothing a client sends can throw out of here.
 */
export function createHttpHandler(options: HttpHandlerOptions): RequestListener {
  const table = routeTable(options.routes, options.disable);
  const disabled = new Set(options.disable);
  const { faults, rateLimit, tokenMatches, log, latencyMs, maxBodyBytes, onRequest } = options;

  // Plain functions taking the request's parts as arguments: no closures or promises per request.
  const deliver = (res: ServerResponse, method: string, path: string, started: number, answer: Answer): void => {
    send(res, answer);
    onRequest?.({ method, path, status: answer.status, ms: performance.now() - started });
  };
  const reply = (res: ServerResponse, method: string, path: string, started: number, answer: Answer): void => {
    log.add(method, path, answer.status);
    if (latencyMs > 0) setTimeout(deliver, latencyMs, res, method, path, started, answer).unref();
    else deliver(res, method, path, started, answer);
  };
  const run = (req: IncomingMessage, res: ServerResponse, requested: string, started: number, found: Found, body: unknown): void => {
    const method = req.method ?? 'GET';
    const { route, param, query } = found;
    // The route's own string when equal: the request log then keeps no string per request alive.
    const path = route.path === requested ? route.path : requested;
    const answer = safely(route, { query, body, param });
    if (route.mutates && answer.status === 200 && faults.lost()) {
      log.add(method, path, 0);
      req.socket.destroy();
      onRequest?.({ method, path, status: 0, ms: performance.now() - started });
      return;
    }
    reply(res, method, path, started, answer);
  };

  return (req, res) => {
    const started = onRequest ? performance.now() : 0;
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);

    const failure = faults.failure();
    if (failure === 500) return reply(res, method, path, started, INTERNAL_ERROR);
    if (failure === 503) return reply(res, method, path, started, UNAVAILABLE);
    const waitSeconds = rateLimit?.take();
    if (waitSeconds !== undefined) return reply(res, method, path, started, tooManyRequests(waitSeconds));
    if (!tokenMatches(bearerToken(req.headers.authorization))) return reply(res, method, path, started, UNAUTHORIZED);

    const found = lookup(table, disabled, method, path, q === -1 ? '' : url.slice(q + 1));
    if ('status' in found) return reply(res, method, path, started, found);
    if (!found.route.body) return run(req, res, path, started, found, undefined);
    readJsonBody(req, maxBodyBytes, (read) =>
      read.ok ? run(req, res, path, started, found, read.value) : reply(res, method, path, started, read.answer),
    );
  };
}

// The same for every request that meets them, so built once.
const INTERNAL_ERROR = message(500, 'internal server error');
const UNAVAILABLE: Answer = { ...message(503, 'service unavailable'), headers: { 'retry-after': '0' } };
const UNAUTHORIZED = message(401, 'unauthorized');
const tooManyRequests = (seconds: number): Answer => ({ ...message(429, 'too many requests'), headers: { 'retry-after': String(seconds) } });

/** Every `"METHOD /path"` form the emulator serves (what `disable` may name). */
export function routeForms(routes: readonly Route[]): string[] {
  return routes.map((r) => `${r.method} ${r.path}`);
}

type Table = Map<string, Route[]>;

function routeTable(routes: readonly Route[], disable: readonly string[]): Table {
  const known = routeForms(routes);
  const unknown = disable.filter((d) => !known.includes(d));
  if (unknown.length > 0) {
    throw new RoleflowError(`emulator: cannot disable ${unknown.join(', ')}; known forms: ${known.join(', ')}`);
  }
  const table: Table = new Map();
  for (const route of routes) {
    if (disable.includes(`${route.method} ${route.path}`)) continue;
    const key = patternPrefix(route.path) ?? route.path;
    table.set(key, [...(table.get(key) ?? []), route]);
  }
  return table;
}

/** A route found for a request, with the path segment it matched and the raw query string. */
interface Found {
  route: Route;
  param: string;
  query: string;
}

function lookup(table: Table, disabled: Set<string>, method: string, path: string, query: string): Found | Answer {
  let routes = table.get(path);
  let param = '';
  if (!routes) {
    const slash = path.lastIndexOf('/');
    routes = slash > 0 ? table.get(path.slice(0, slash + 1)) : undefined;
    try {
      param = decodeURIComponent(path.slice(slash + 1));
    } catch {
      routes = undefined;
    }
    if (param === '') routes = undefined;
  }
  if (!routes) return notFound(method, path);
  for (const route of routes) if (route.method === method) return { route, param, query };
  // A form the tenant lacks answers like a path it lacks, even when the path serves another method.
  if (disabled.has(`${method} ${routes[0]!.path}`)) return notFound(method, path);
  return { ...message(405, 'method not allowed'), headers: { allow: routes.map((r) => r.method).join(', ') } };
}

const notFound = (method: string, path: string): Answer => message(404, `not found: ${method} ${path}`);

// `/flow/{flowName}` is served under the prefix `/flow/`.
function patternPrefix(path: string): string | undefined {
  const brace = path.indexOf('{');
  return brace === -1 ? undefined : path.slice(0, brace);
}

function safely(route: Route, req: RouteRequest): Answer {
  try {
    return route.handle(req);
  } catch {
    return INTERNAL_ERROR;
  }
}

// Runs from a timer when there is latency, where a throw would end the process: never throws.
function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  try {
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(answer.body),
      ...answer.headers,
    });
    res.end(answer.body);
  } catch {
    res.destroy();
  }
}
