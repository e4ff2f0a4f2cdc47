import { afterEach, describe, expect, it } from 'vitest';
import { RoleflowError } from '../../src/core/errors.js';
import { messagePayload } from '../../src/core/runs/index.js';
import type { ExecutionLogEntry, TenantClient, WsServerMessage } from '../../src/core/model.js';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { clientFor, everyText, rejection } from './client-kit.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tenant(options: EmulatorOptions = {}, wsAuth: 'header' | 'query' = 'header', token?: string, wsQuery = '') {
  const emulator = await startEmulator({ token: 'ws-tok-123456', ...options });
  const { client, lines } = clientFor({ ...emulator, wsUrl: `${emulator.wsUrl}${wsQuery}` }, { wsAuth }, token ?? emulator.token);
  cleanups.push(async () => {
    await client.close();
    await emulator.close();
  });
  return { emulator, client, lines };
}

/** Polls the execution log until it holds `steps` entries. */
async function logsOf(client: TenantClient, executionId: string, steps: number): Promise<ExecutionLogEntry[]> {
  for (;;) {
    const logs = await client.execLogs(executionId);
    if (logs.length >= steps) return logs;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const TIMED = {
  flows: {
    timed: {
      steps: [
        { service: 'quick', latency: 30 },
        { service: 'long', latency: 1010 },
      ],
      outputs: { results: [{ done: 'yes' }] },
    },
  },
};

describe('client: flows over HTTPS', () => {
  it('starts a flow and reads its log with counts as numbers and both latency forms as milliseconds', async () => {
    const parts = await tenant({ flows: TIMED, latencyForm: 'parts' });
    const total = await tenant({ flows: TIMED, latencyForm: 'total' });
    const runs = await Promise.all(
      [parts, total].map(async ({ client }) => {
        const start = await client.startFlow('timed', {});
        expect(start.executionId).not.toBe('');
        return logsOf(client, start.executionId, 2);
      }),
    );
    for (const logs of runs) {
      expect(logs.map((e) => [e.count, e.service, e.status, e.latencyMs])).toEqual([
        [1, 'quick', 'completed', 30],
        [2, 'long', 'completed', 1010],
      ]);
    }
  });

  it('names the status and message of a refused start', async () => {
    const { client } = await tenant();
    expect((await rejection(client.startFlow('no-such-flow', {}))).message).toBe(
      'POST /flow/no-such-flow: 404 flow not found: no-such-flow',
    );
  });
});

describe('client: WebSocket', () => {
  it('receives the ack then the completed message, decoded, even when they arrive before next()', async () => {
    const { client } = await tenant({ wsMessages: 'final' });
    const session = await client.openWs();
    session.send({ action: 'message', service: 'echo', lang: 'fr' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ack = (await session.next(1000)) as WsServerMessage;
    expect(ack).toMatchObject({ action: 'message', state: 'ack', statusCode: 200, service: 'echo', nodeId: '' });
    expect(messagePayload(ack)).toBeUndefined();
    const done = (await session.next(1000)) as WsServerMessage;
    expect(done).toMatchObject({
      state: 'completed',
      statusCode: 200,
      nodeId: 'node-1',
    });
    expect(messagePayload(done)).toEqual({ outputs: { results: [{ lang: 'fr' }] } });
    expect(await session.next(30)).toBeUndefined();
    session.close();
  });

  it('authenticates with ?token= when the tenant asks for it', async () => {
    const { client } = await tenant({}, 'query');
    const session = await client.openWs();
    session.send({ action: 'message', service: 'echo' });
    expect((await session.next(1000))?.state).toBe('ack');
    session.close();
  });

  it.each(['header', 'query'] as const)('reports a refused upgrade (%s) without the token', async (wsAuth) => {
    const { client, emulator } = await tenant({}, wsAuth, 'wrong-token-987654');
    const error = await rejection(client.openWs());
    expect(error).toBeInstanceOf(RoleflowError);
    expect(error.message).toBe(`WebSocket upgrade refused: 403 Forbidden (${emulator.wsUrl}): tenant "test" at ${emulator.baseUrl} refused its token`);
    expect(everyText(error)).not.toContain('wrong-token-987654');
  });

  it.each(['header', 'query'] as const)('tells --verbose of each WebSocket connection, refused or not, its query masked (%s)', async (wsAuth) => {
    const { client, lines } = await tenant({}, wsAuth, undefined, '?tenant=acme&api_key=k3y-in-url');
    (await client.openWs()).close();
    const token = wsAuth === 'query' ? '&token=***' : '';
    expect(lines).toEqual([{ method: 'GET', path: `/ws?tenant=acme&api_key=***${token}`, status: 101, ms: expect.any(Number), attempt: 1 }]);
    const refused = await tenant({}, wsAuth, 'wrong-token-987654');
    await rejection(refused.client.openWs());
    expect(refused.lines).toEqual([{ method: 'GET', path: `/ws${wsAuth === 'query' ? '?token=***' : ''}`, status: 403, ms: expect.any(Number), attempt: 1 }]);
  });

  it('rejects a waiting next() cleanly when the connection drops', async () => {
    const { client, emulator } = await tenant();
    const session = await client.openWs();
    const waiting = session.next(5000);
    await emulator.close();
    const error = await rejection(waiting);
    expect(error).toBeInstanceOf(RoleflowError);
    expect(error.message).toMatch(/^WebSocket connection to ws:\/\/127\.0\.0\.1:\d+\/ws closed by the service \(code 1006\)$/);
    await expect(session.next(10)).rejects.toThrow(error.message);
    expect(() => session.send({ action: 'message', service: 'echo' })).toThrow(RoleflowError);
  });

  it('says when the tenant has no WebSocket URL', async () => {
    const emulator = await startEmulator();
    cleanups.push(() => emulator.close());
    const { client } = clientFor(emulator, { wsUrl: undefined });
    cleanups.unshift(() => client.close());
    expect((await rejection(client.openWs())).message).toBe('tenant test has no ws_url: the WebSocket transport is not available');
  });
});
