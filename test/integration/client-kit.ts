import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { RoleFields, TenantClient, TenantTarget } from '../../src/core/model.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { createClient, type ClientOptions } from '../../src/tenant/client.js';
import { RoleflowError } from '../../src/core/errors.js';

/** A target for an emulator, with quick timeouts and retries for tests. */
export function targetFor(emulator: Pick<RunningEmulator, 'baseUrl' | 'wsUrl'>, over: Partial<TenantTarget> = {}): TenantTarget {
  return {
    name: 'test',
    baseUrl: emulator.baseUrl,
    wsUrl: emulator.wsUrl,
    wsAuth: 'header',
    api: {},
    timeoutMs: 2000,
    retries: 3,
    ...over,
  };
}

export type VerboseLine = Parameters<NonNullable<ClientOptions['onRequest']>>[0];

/** A client whose backoff does not sleep, recording its verbose lines. */
export function clientFor(
  emulator: Pick<RunningEmulator, 'baseUrl' | 'wsUrl' | 'token'>,
  over: Partial<TenantTarget> = {},
  /** `null`: no token at all. */
  token: string | null = emulator.token,
) {
  const lines: VerboseLine[] = [];
  const client = createClient({
    target: targetFor(emulator, over),
    token: token ?? undefined,
    onRequest: (line) => lines.push(line),
    sleep: () => Promise.resolve(),
  });
  return { client, lines };
}

/** An emulator for one test, closed after it. */
export async function emulatorForTest(options: EmulatorOptions): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  onTestFinished(() => emulator.close());
  return emulator;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Every string an error could print: message, stack and the whole cause chain. */
export function everyText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 10; depth++) {
    if (e instanceof Error) {
      parts.push(e.message, e.stack ?? '', JSON.stringify(Object.entries(e)));
      e = e.cause;
    } else {
      parts.push(String(e));
      e = undefined;
    }
  }
  return parts.join('\n');
}

/**
 * A real server on 127.0.0.1 for the answers the emulator never gives (a redirect, a body that is
 * not JSON, wrong shapes, an echoed header): one handler for every request.
 */
export async function oddTenant(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { method: string; url: string; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Create every Role the way `apply` run again does: a create whose outcome is unknown is never
 * re-sent by the client, nor is a failed one; the next round lists the tenant and creates only what is absent.
 * Returns the ids by name and how many creates ended with an unknown outcome.
 */
export async function createUntilDone(client: TenantClient, roles: RoleFields[], rounds = 10): Promise<{ ids: Map<string, string>; unknown: number }> {
  let unknown = 0;
  for (let round = 0; round < rounds; round++) {
    const present = new Map((await client.listRoles()).map((r) => [r.name, r.id]));
    const missing = roles.filter((r) => !present.has(r.name));
    if (missing.length === 0) return { ids: present, unknown };
    const settled = await Promise.allSettled(missing.map((fields) => client.createRole(fields)));
    for (const s of settled) {
      // A failure (503 after the retries) or an unknown outcome: the next round sees what is there.
      if (s.status === 'rejected' && s.reason instanceof RoleflowError && s.reason.code === 'outcome_unknown') unknown++;
    }
  }
  throw new Error(`not every Role was created after ${rounds} rounds`);
}
