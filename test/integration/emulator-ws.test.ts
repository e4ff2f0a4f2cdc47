import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type FlowsConfig } from '../../src/emulator/index.js';
import { emulatorPerFile } from '../helpers/emulator.js';
import { exchange, open } from '../helpers/ws.js';

const flows: FlowsConfig = {
  flows: {
    summarize: {
      steps: [
        { service: 'retriever', latency: '20ms' },
        { service: 'llm', latency: '30ms' },
        { service: 'formatter', latency: '10ms' },
      ],
      outputs: { results: [{ summary: 'Summary: ${text}' }] },
    },
    echo: { steps: [{ service: 'echo' }], outputs: { results: ['${*}'] } },
    flaky: {
      steps: [
        { service: 'a', latency: '10ms' },
        { service: 'b', latency: '10ms', fail: true },
        { service: 'c', latency: '10ms' },
      ],
      outputs: { results: [] },
    },
    // Longer than any test may take: a close that waits for it fails by the test's timeout.
    slow: { steps: [{ service: 'wait', latency: 3_600_000 }], outputs: { results: [] } },
  },
};

/** Whether another message arrives within `ms`. */
function quietFor(ws: WebSocket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onMessage = (): void => resolve(false);
    ws.once('message', onMessage);
    setTimeout(() => {
      ws.off('message', onMessage);
      resolve(true);
    }, ms);
  });
}

describe('emulator: flows over WebSocket', () => {
  const emulator = emulatorPerFile({ flows });

  it('acks, then sends one completed message per node; the last carries the outputs', async () => {
    const ws = await open(emulator());
    const [ack, ...done] = await exchange(ws, { action: 'message', service: 'summarize', text: 'Refund my order' }, 4);
    expect(ack).toEqual({
      action: 'message',
      state: 'ack',
      statusCode: '200',
      service_type: 'customflow',
      service: 'summarize',
      connectionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      message: 'request received and is being processed',
      inputsValues: '{}',
      nodeId: '',
    });
    expect(done.map((m) => [m['state'], m['statusCode'], m['nodeId']])).toEqual([
      ['completed', '200', 'node-1'],
      ['completed', '200', 'node-2'],
      ['completed', '200', 'node-3'],
    ]);
    expect(new Set([ack!, ...done].map((m) => m['connectionId'])).size).toBe(1);
    expect(new Set([ack!, ...done].map((m) => m['messageId'])).size).toBe(4);
    for (const m of done) expect(JSON.parse(m['inputsValues']!)).toEqual({ inputsValues: { text: 'Refund my order' } });
    expect(JSON.parse(done[0]!['message']!)).toEqual({
      outputs: { results: [{ service: 'retriever', execution_id: expect.any(String), status: 'completed' }] },
    });
    expect(JSON.parse(done[2]!['message']!)).toEqual({ outputs: { results: [{ summary: 'Summary: Refund my order' }] } });
    expect(await quietFor(ws, 50)).toBe(true);
    ws.close();
  });

  it('accepts the token as a ?token= query, and echoes all inputs', async () => {
    const ws = await open(emulator(), { query: emulator().token });
    const [, done] = await exchange(ws, { action: 'message', service: 'echo', a: '1', b: 'x y' }, 2);
    expect(JSON.parse(done!['message']!)).toEqual({ outputs: { results: [{ a: '1', b: 'x y' }] } });
    ws.close();
  });

  it('reports a failed node as completed with statusCode 500, and nothing after it', async () => {
    const ws = await open(emulator());
    const [, first, failed] = await exchange(ws, { action: 'message', service: 'flaky' }, 3);
    expect([first!['statusCode'], failed!['statusCode'], failed!['nodeId'], failed!['state']]).toEqual(['200', '500', 'node-2', 'completed']);
    expect(JSON.parse(failed!['message']!)).toMatchObject({ error: 'b failed', outputs: { results: [{ service: 'b', status: 'failed' }] } });
    expect(await quietFor(ws, 40)).toBe(true);
    ws.close();
  });

  it('answers bad frames and unknown flows with a 4xx statusCode, and keeps the connection', async () => {
    const ws = await open(emulator());
    const status = async (frame: unknown): Promise<[string?, string?]> => {
      const [m] = await exchange(ws, frame, 1);
      return [m!['statusCode'], m!['state']];
    };
    expect(await status('{not json')).toEqual(['400', 'error']);
    expect(await status([1, 2])).toEqual(['400', 'error']);
    expect(await status({ action: 'subscribe', service: 'echo' })).toEqual(['400', 'error']);
    expect(await status({ action: 'message' })).toEqual(['400', 'error']);
    expect(await status({ action: 'message', service: 'echo', n: 1 })).toEqual(['400', 'error']);
    const [unknown] = await exchange(ws, { action: 'message', service: 'nope' }, 1);
    expect(unknown).toMatchObject({ statusCode: '404', service: 'nope', message: 'flow not found: nope' });
    const [ack] = await exchange(ws, { action: 'message', service: 'echo' }, 1);
    expect(ack!['state']).toBe('ack');
    ws.close();
  });

  it('refuses an upgrade without the right token with a bare 403, either way it is presented', async () => {
    const e = emulator();
    await expect(open(e, {})).rejects.toThrow('status 403');
    await expect(open(e, { header: 'wrong' })).rejects.toThrow('status 403');
    await expect(open(e, { query: 'wrong' })).rejects.toThrow('status 403');
    await expect(open(e, { header: e.token, path: '/elsewhere' })).rejects.toThrow('status 404');
  });

  it('sends a single completed message in "final" mode', async () => {
    const e = await startEmulator({ flows, wsMessages: 'final' });
    try {
      const ws = await open(e);
      const [ack, done] = await exchange(ws, { action: 'message', service: 'summarize', text: 't' }, 2);
      expect([ack!['state'], done!['state'], done!['nodeId']]).toEqual(['ack', 'completed', 'node-3']);
      expect(JSON.parse(done!['message']!)).toEqual({ outputs: { results: [{ summary: 'Summary: t' }] } });
      expect(await quietFor(ws, 40)).toBe(true);
    } finally {
      await e.close();
    }
  });

  it('closes promptly with a flow still running, ending the connection', async () => {
    const e = await startEmulator({ flows });
    const ws = await open(e);
    await exchange(ws, { action: 'message', service: 'slow' }, 1);
    const closedByServer = new Promise((resolve) => ws.once('close', resolve));
    await e.close();
    await closedByServer;
  });
});
