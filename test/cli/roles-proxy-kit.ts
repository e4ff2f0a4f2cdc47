import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { onTestFinished } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';

/**
 * A tiny HTTP proxy on 127.0.0.1 in front of an emulator, for tenants the emulator cannot play:
 * one that carries out a create seconds after it was sent, one that answers 500 after doing the
 * work, one that loses the answer of a change it made. Each request meets the `Fault` that
 * `decide` returns for it. A request is carried out whatever happens to the client's connection
 * meanwhile (a client that gave up does not stop a slow tenant).
 */
export interface Fault {
  /** Wait this long before the request reaches the emulator (it is carried out then). */
  holdMs?: number;
  /** Answer this status at once and never forward it: the tenant did nothing. */
  failBefore?: number;
  /** Forward it, then cut the connection instead of answering: done, answer lost. */
  lose?: boolean;
  /** Forward it, then answer this status instead of the emulator's answer: done, then an error. */
  failAfter?: number;
  /** Wait this long after the emulator answered, before answering. */
  delayAnswerMs?: number;
  /** Wait for this before forwarding (a barrier across requests). */
  gate?: Promise<void>;
}

export interface RequestSeen {
  method: string;
  path: string;
  /** 1-based, in arrival order. */
  n: number;
}

export interface FaultProxy {
  baseUrl: string;
  /** Requests accepted and not yet carried out by the emulator. */
  pending(): number;
  /** Resolves once every request it accepted has been carried out. */
  settled(): Promise<void>;
  /** Later requests meet this instead. */
  setDecide(decide: (req: RequestSeen) => Fault): void;
  close(): Promise<void>;
}

/** A proxy for one test, closed after it. */
export async function faultProxy(target: RunningEmulator, decide: (req: RequestSeen) => Fault): Promise<FaultProxy> {
  let current = decide;
  let seen = 0;
  let pending = 0;
  const waiters: (() => void)[] = [];
  const done = (): void => {
    pending--;
    if (pending === 0) for (const wake of waiters.splice(0)) wake();
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const url = req.url ?? '/';
    const fault = current({ method: req.method ?? 'GET', path: url.split('?')[0]!, n: ++seen });
    if (fault.failBefore !== undefined) return answer(res, fault.failBefore, '{"message":"injected failure"}');
    pending++;
    let status: number;
    let text: string;
    try {
      if (fault.gate) await fault.gate;
      if (fault.holdMs) await sleep(fault.holdMs);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (req.headers.authorization !== undefined) headers['authorization'] = req.headers.authorization;
      const forwarded = await request(`${target.baseUrl}${url}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        body: body.length === 0 ? undefined : body,
      });
      status = forwarded.statusCode;
      text = await forwarded.body.text();
    } finally {
      done();
    }
    if (fault.delayAnswerMs) await sleep(fault.delayAnswerMs);
    if (fault.lose) return void req.socket.destroy();
    if (fault.failAfter !== undefined) return answer(res, fault.failAfter, '{"message":"injected failure after the change"}');
    answer(res, status, text);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: FaultProxy = {
    baseUrl: `http://127.0.0.1:${port}`,
    pending: () => pending,
    settled: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    setDecide: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  onTestFinished(async () => {
    await proxy.settled();
    await proxy.close();
  });
  return proxy;
}

function answer(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `n` promises' worth of a barrier: each call to `wait()` resolves once `n` calls have been made. */
export function barrier(n: number): { wait(): Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait() {
      arrived++;
      if (arrived >= n) open();
      return opened;
    },
  };
}

/** How many times each name is on the tenant, for names held more than once. */
export function heldTwice(em: RunningEmulator): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const role of em.roles()) counts[role.name] = (counts[role.name] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 1));
}
