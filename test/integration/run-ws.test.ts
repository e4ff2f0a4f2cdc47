import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { WebSocketServer } from 'ws';
import { evaluateTest } from '../../src/core/flows/index.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { tenantProblem } from '../../src/run/flows/flow-shared.js';
import { runWs } from '../../src/run/flows/flow-ws.js';
import { flowTest } from '../core/flows/builders.js';
import { clientFor } from './client-kit.js';

const FLOWS = {
  flows: {
    three: {
      steps: [
        { service: 'retriever', latency: 20 },
        { service: 'llm', latency: 30 },
        { service: 'formatter', latency: 10 },
      ],
      outputs: { results: [{ summary: 'Summary: ${text}' }] },
    },
    breaks: {
      steps: [
        { service: 'fetch', latency: 20 },
        { service: 'crash', latency: 20, fail: true },
        { service: 'never', latency: 10 },
      ],
      outputs: { results: [] },
    },
    // Longer than any test may take: only a timeout or a closed connection ends it in time.
    forever: { steps: [{ service: 'sleeper', latency: 3_600_000 }], outputs: { results: [] } },
  },
};

const emulators: RunningEmulator[] = [];
afterAll(async () => {
  for (const e of emulators) await e.close();
});

async function tenant(options: EmulatorOptions = {}, token?: string) {
  const emulator = await startEmulator({ flows: FLOWS, ...options });
  emulators.push(emulator);
  return { emulator, ...clientFor(emulator, {}, token ?? emulator.token) };
}

const three = (until: string, extra = '') => flowTest(`  - name: t\n    until: ${until}\n${extra}`, 'flow: three\n');

describe('WebSocket runner against the emulator', () => {
  it('keeps the ack and every completed message; the outputs are the last node\'s', async () => {
    const { client } = await tenant();
    const result = await runWs(client, three('{ node: node-3 }'), { text: 'hello' });
    expect(result).toMatchObject({ transport: 'ws', status: 'ok', outputs: { results: [{ summary: 'Summary: hello' }] } });
    expect(result.messages!.map((m) => [m.state, m.nodeId])).toEqual([
      ['ack', ''],
      ['completed', 'node-1'],
      ['completed', 'node-2'],
      ['completed', 'node-3'],
    ]);
    expect(result.wallMs).toBeGreaterThanOrEqual(60);
    await client.close();
  });

  it('stops at the n-th completed message, with that message\'s outputs', async () => {
    const { client } = await tenant();
    const result = await runWs(client, three('{ messages: 2 }'), { text: 'x' });
    expect(result.status).toBe('ok');
    expect(result.messages!.filter((m) => m.state === 'completed')).toHaveLength(2);
    expect(result.outputs).toMatchObject({ results: [{ service: 'llm', status: 'completed' }] });
    await client.close();
  });

  it('ends after a quiet period that restarts with each message; the wall-clock stops at the last one', async () => {
    const { client } = await tenant();
    const before = performance.now();
    const result = await runWs(client, three('{ quiet: 150ms }'), { text: 'x' });
    const elapsed = performance.now() - before;
    expect(result.status).toBe('ok');
    // The nodes come 20ms and 30ms and 10ms apart: shorter than the quiet period, so all of them count.
    expect(result.messages).toHaveLength(4);
    expect(result.outputs).toEqual({ results: [{ summary: 'Summary: x' }] });
    expect(elapsed - result.wallMs).toBeGreaterThanOrEqual(145);
    await client.close();
  });

  it('works with a service that sends only the final completed message', async () => {
    const { client } = await tenant({ wsMessages: 'final' });
    const result = await runWs(client, three('{ quiet: 50ms }'), { text: 'once' });
    expect(result.status).toBe('ok');
    expect(result.messages!.map((m) => m.state)).toEqual(['ack', 'completed']);
    expect(result.outputs).toEqual({ results: [{ summary: 'Summary: once' }] });
    await client.close();
  });

  it('fails at once on a completed message with a non-200 statusCode', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    until: { node: node-3 }\n', 'flow: breaks\n');
    const result = await runWs(client, test, {});
    expect(result).toMatchObject({ status: 'failed', endedBy: 'failed_step' });
    expect(result.error).toMatch(/^flow "breaks" over WebSocket: message from breaks has statusCode 500: .*crash failed/);
    expect(evaluateTest(test, result)[0]).toMatchObject({ kind: 'execution', status: 'fail' });
    await client.close();
  });

  it('reports a request the service answers with something other than an ack, naming the flow', async () => {
    const { client } = await tenant();
    const result = await runWs(client, flowTest('  - name: t\n', 'flow: nope\n'), {});
    expect(result.status).toBe('error');
    expect(result.error).toBe(
      'flow "nope" over WebSocket: expected an ack first, got a message with state "error" and statusCode 404: flow not found: nope',
    );
    await client.close();
  });

  it('reports a refused upgrade (wrong token) as a 403 naming the flow, without the token', async () => {
    const { client } = await tenant({}, 'wrong-token-123');
    const result = await runWs(client, three('{ node: node-3 }'), {});
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^flow "three" over WebSocket: WebSocket upgrade refused: 403 Forbidden/);
    expect(JSON.stringify(result)).not.toContain('wrong-token-123');
    expect(tenantProblem(result)).toMatch(/^WebSocket upgrade refused: 403/);
    await client.close();
  });

  it('reports a connection dropped mid-run (the tenant went away)', async () => {
    const { emulator, client } = await tenant();
    const test = flowTest('  - name: t\n    until: { node: node-1 }\n', 'flow: forever\n');
    const running = runWs(client, test, {});
    setTimeout(() => void emulator.close(), 80);
    const result = await running;
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^flow "forever" over WebSocket: WebSocket connection to .* closed by the service .*before the flow finished \(0 completed messages\)/);
    expect(result.messages!.map((m) => m.state)).toEqual(['ack']);
    await client.close();
  });

  it('turns a flow that runs past its timeout into an error, on time', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    timeout: 250ms\n', 'flow: forever\n');
    const result = await runWs(client, test, {});
    expect(result).toMatchObject({ status: 'error', endedBy: 'timeout' });
    expect(result.error).toBe(
      'flow "forever" over WebSocket: timed out after 250ms waiting for a completed message and 3s of quiet (0 completed messages so far)',
    );
    await client.close();
  });
});

/**
 * A WebSocket service on 127.0.0.1 that answers every request with an ack and then `count`
 * completed messages at once, node after node (`node-1` … `node-N`), each with its index as output.
 * `sent` resolves once the last one is written to the socket.
 */
async function floodingService(count: number) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  onTestFinished(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  let sent: () => void = () => undefined;
  const allSent = new Promise<void>((resolve) => (sent = resolve));
  wss.on('connection', (socket) => {
    socket.on('message', () => {
      const base = { action: 'message', statusCode: '200', service_type: 'customflow', service: 'flood', connectionId: 'c-1', inputsValues: '{}' };
      socket.send(JSON.stringify({ ...base, state: 'ack', message: 'received', nodeId: '', messageId: 'ack' }));
      for (let i = 1; i <= count; i++) {
        const message = JSON.stringify({ outputs: { results: [{ i }] } });
        socket.send(JSON.stringify({ ...base, state: 'completed', message, nodeId: `node-${i}`, messageId: `m-${i}` }), i === count ? () => sent() : undefined);
      }
    });
  });
  const { port } = wss.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, token: 'flood-token-1', allSent };
}

describe('WebSocket runner: a flow that sends 40 000 messages', () => {
  const N = 40_000;

  it.each([
    ['until.messages', `{ messages: ${N} }`, 'until'],
    ['quiet', '{ quiet: 300ms }', 'quiet'],
  ])('keeps every message, in order, with the last one\'s outputs (ended by %s)', async (_, until, endedBy) => {
    const service = await floodingService(N);
    const { client } = clientFor(service);
    const test = flowTest(`  - name: t\n    timeout: 25s\n    until: ${until}\n`, 'flow: flood\n');
    const result = await runWs(client, test, {});
    expect(result).toMatchObject({ status: 'ok', endedBy, outputs: { results: [{ i: N }] } });
    expect(result.messages).toHaveLength(N + 1);
    expect(result.messages!.every((m, i) => m.messageId === (i === 0 ? 'ack' : `m-${i}`))).toBe(true);
    await client.close();
  });

  it('a session hands over every message in order however many wait to be read', async () => {
    const service = await floodingService(N);
    const { client } = clientFor(service);
    const session = await client.openWs();
    session.send({ action: 'message', service: 'flood' });
    await service.allSent;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ids: string[] = [];
    for (let m = await session.next(5000); m !== undefined; m = await session.next(200)) ids.push(m.messageId ?? '');
    expect(ids).toHaveLength(N + 1);
    expect(ids.every((id, i) => id === (i === 0 ? 'ack' : `m-${i}`))).toBe(true);
    session.close();
    await client.close();
  });
});
