import type { IncomingMessage } from 'node:http';

/** What a route answers; the server adds latency, logging and faults around it. */
export interface Answer {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface RouteRequest {
  /** The raw query string, without `?`. */
  query: string;
  /** The parsed JSON body (routes that take one). */
  body: unknown;
  /** The path segment a pattern route matched (the flow name), decoded. */
  param: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Exact path, or a prefix pattern ending in `{flowName}`. */
  path: string;
  body: boolean;
  /** Role changes, which `lostRate` may answer by dropping the connection after the change. */
  mutates: boolean;
  handle(req: RouteRequest): Answer;
}

export function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) };
}

export function message(status: number, text: string): Answer {
  return json(status, { message: text });
}

export const MISSING_PARAMETERS = 'missing required parameters';

/** The named members when each is a string, else undefined (the service's 400). */
export function stringFields<K extends string>(body: unknown, keys: readonly K[]): Record<K, string> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const out = {} as Record<K, string>;
  for (const key of keys) {
    const v = record[key];
    if (typeof v !== 'string') return undefined;
    out[key] = v;
  }
  return out;
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; answer: Answer };

// Built once: they are the same for every request that meets them.
// Closing the connection spares reading the rest of a huge body just to keep it alive.
const TOO_LARGE: BodyResult = { ok: false, answer: { ...message(413, 'request body too large'), headers: { connection: 'close' } } };
const MALFORMED: BodyResult = { ok: false, answer: message(400, 'malformed JSON body') };
const UNREADABLE: BodyResult = { ok: false, answer: message(400, 'request body could not be read') };

/**
 * Read a JSON body of at most `limit` bytes; too big → 413, not JSON → 400. `done` is called once,
 * in the request's own event (no promise: this runs for every create).
 */
export function readJsonBody(req: IncomingMessage, limit: number, done: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return done(TOO_LARGE);
  let chunks: Buffer | Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const settle = (result: BodyResult): void => {
    if (settled) return;
    settled = true;
    done(result);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      req.removeAllListeners('data');
      return settle(TOO_LARGE);
    }
    if (chunks === undefined) chunks = chunk;
    else if (Array.isArray(chunks)) chunks.push(chunk);
    else chunks = [chunks, chunk];
  });
  req.on('end', () => {
    if (size > limit) return;
    const bytes = chunks === undefined ? undefined : Array.isArray(chunks) ? Buffer.concat(chunks, size) : chunks;
    const text = bytes === undefined ? '' : bytes.toString('utf8');
    let value: unknown;
    try {
      value = text === '' ? undefined : JSON.parse(text);
    } catch {
      return settle(MALFORMED);
    }
    settle({ ok: true, value });
  });
  req.on('error', () => settle(UNREADABLE));
}

export interface RequestRecord {
  method: string;
  path: string;
  /** 0 when the connection was dropped on purpose without an answer (`lostRate`). */
  status: number;
}

/**
 * The last `capacity` answered requests, for tests; bounded so a long benchmark stays flat. Held
 * as three rings of method, path and status (no object per request to keep alive until it is
 * overwritten); `list()` builds the records.
 */
export class RequestLog {
  private readonly methods: string[] = [];
  private readonly paths: string[] = [];
  private readonly statuses: number[] = [];
  private next = 0;

  constructor(private readonly capacity = 10_000) {}

  add(method: string, path: string, status: number): void {
    this.methods[this.next] = method;
    this.paths[this.next] = path;
    this.statuses[this.next] = status;
    this.next = (this.next + 1) % this.capacity;
  }

  list(): RequestRecord[] {
    const size = this.methods.length;
    const first = size < this.capacity ? 0 : this.next;
    const records: RequestRecord[] = [];
    for (let i = 0; i < size; i++) {
      const at = (first + i) % size;
      records.push({ method: this.methods[at]!, path: this.paths[at]!, status: this.statuses[at]! });
    }
    return records;
  }
}
