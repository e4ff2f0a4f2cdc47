import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFlowsConfig, startEmulator, type FlowsConfig, type RunningEmulator } from '../../src/emulator/index.js';
import { call, emulatorPerFile } from '../helpers/emulator.js';

const flows: FlowsConfig = {
  flows: {
    quick: {
      inputs: ['text'],
      steps: [
        { service: 'retriever', latency: '30ms' },
        { service: 'llm', latency: '40ms', fail_when: { text: '^FAIL' } },
        { service: 'formatter', latency: 20 },
      ],
      outputs: { results: [{ summary: 'Summary: ${text}', lang: '${lang}' }] },
    },
    broken: {
      identity: 'bot@tenant',
      steps: [
        { service: 'first', latency: '10ms' },
        { service: 'second', latency: '10ms', fail: true },
        { service: 'third', latency: '10ms' },
      ],
      outputs: { results: [] },
    },
    // A pattern that backtracks for ages on "aaa…ab": the emulator runs it in linear time.
    nested: { steps: [{ service: 'guard', latency: 0, fail_when: { text: '^(a+)+$' } }], outputs: { results: [] } },
    second: { flow_id: 'flow-42', steps: [{ service: 'slow', latency: '1.005s' }], outputs: { results: ['${*}'] } },
  },
};

type Entry = Record<string, unknown>;

async function start(e: RunningEmulator, flow: string, inputs: unknown): Promise<{ flowId: string; executionId: string }> {
  const reply = await call(e, 'POST', `/flow/${flow}`, { body: inputs });
  expect(reply.status).toBe(200);
  return reply.body as { flowId: string; executionId: string };
}

async function logs(e: RunningEmulator, executionId: string): Promise<Entry[]> {
  const reply = await call(e, 'POST', '/admin/stats', { body: { execution_id: executionId, opCode: 'exec_logs' } });
  expect(reply.status).toBe(200);
  return reply.body as Entry[];
}

/** Poll like a client does, keeping every distinct answer, until `count` entries or 3 s. */
async function pollUntil(e: RunningEmulator, executionId: string, count: number): Promise<Entry[][]> {
  const seen: Entry[][] = [];
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const entries = await logs(e, executionId);
    if (seen.at(-1)?.length !== entries.length) seen.push(entries);
    if (entries.length >= count) return seen;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} log entries after 3s`);
}

describe('emulator: flows over HTTPS', () => {
  const emulator = emulatorPerFile({ flows });

  it('logs the steps one by one as their simulated time passes, shaped as the interface shows', async () => {
    const began = Date.now();
    const { flowId, executionId } = await start(emulator(), 'quick', { text: 'Refund my order' });
    expect(flowId).toMatch(/^[0-9a-f-]{36}$/);
    expect(executionId).toMatch(/^[0-9a-f-]{36}$/);

    const seen = await pollUntil(emulator(), executionId, 3);
    expect(seen[0]!.length).toBeLessThan(3);
    expect(Date.now() - began).toBeGreaterThanOrEqual(90);
    const final = seen.at(-1)!;
    expect(final.map((e) => e['service'])).toEqual(['retriever', 'llm', 'formatter']);
    expect(final.map((e) => e['count'])).toEqual(['1', '2', '3']);
    expect(final[0]).toEqual({
      count: '1',
      service: 'retriever',
      service_type: 'ai_services',
      execution_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      identity: 'emulator',
      stop_execution: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: 'completed',
      latency: { milliseconds: 30 },
      flow_id: flowId,
    });
    expect(final.map((e) => e['latency'])).toEqual([{ milliseconds: 30 }, { milliseconds: 40 }, { milliseconds: 20 }]);
    const stops = final.map((e) => Date.parse(e['stop_execution'] as string));
    expect([stops[1]! - stops[0]!, stops[2]! - stops[1]!]).toEqual([40, 20]);
    expect(await logs(emulator(), executionId)).toEqual(final);
  });

  it('stops the log at a failed step', async () => {
    const { executionId } = await start(emulator(), 'broken', {});
    const seen = await pollUntil(emulator(), executionId, 2);
    await new Promise((r) => setTimeout(r, 40));
    const final = await logs(emulator(), executionId);
    expect(final).toEqual(seen.at(-1));
    expect(final.map((e) => [e['service'], e['status'], e['identity']])).toEqual([
      ['first', 'completed', 'bot@tenant'],
      ['second', 'failed', 'bot@tenant'],
    ]);
  });

  it('fails a step when an input matches its fail_when rule', async () => {
    const { executionId } = await start(emulator(), 'quick', { text: 'FAIL please' });
    const final = (await pollUntil(emulator(), executionId, 2)).at(-1)!;
    await new Promise((r) => setTimeout(r, 40));
    expect(await logs(emulator(), executionId)).toEqual(final);
    expect(final.map((e) => e['status'])).toEqual(['completed', 'failed']);
  });

  it('runs a fail_when rule in linear time: a nested quantifier on a poison input answers at once', async () => {
    const poisoned = await start(emulator(), 'nested', { text: `${'a'.repeat(5000)}b` });
    const matching = await start(emulator(), 'nested', { text: 'a'.repeat(5000) });
    expect((await pollUntil(emulator(), poisoned.executionId, 1)).at(-1)!.map((e) => e['status'])).toEqual(['completed']);
    expect((await pollUntil(emulator(), matching.executionId, 1)).at(-1)!.map((e) => e['status'])).toEqual(['failed']);
  });

  it('gives a step of one second or more its seconds, as parts or as a whole', async () => {
    const total = await startEmulator({ flows, latencyForm: 'total' });
    try {
      const [parts, whole] = await Promise.all(
        [emulator(), total].map(async (e) => {
          const { flowId, executionId } = await start(e, 'second', { any: 'thing' });
          expect(flowId).toBe('flow-42');
          return (await pollUntil(e, executionId, 1)).at(-1)![0]!['latency'];
        }),
      );
      expect(parts).toEqual({ seconds: 1, milliseconds: 5 });
      expect(whole).toEqual({ seconds: 1, milliseconds: 1005 });
    } finally {
      await total.close();
    }
  });

  it('answers bad flow starts and polls with documented 4xx {message}', async () => {
    const e = emulator();
    expect(await call(e, 'POST', '/flow/nope', { body: {} })).toMatchObject({ status: 404, body: { message: 'flow not found: nope' } });
    expect(await call(e, 'POST', '/flow/quick', { body: { text: 3 } })).toMatchObject({
      status: 400,
      body: { message: 'input "text" must be a string' },
    });
    expect(await call(e, 'POST', '/flow/quick', { body: {} })).toMatchObject({
      status: 400,
      body: { message: 'missing required parameters: text' },
    });
    expect(await call(e, 'POST', '/flow/quick', { body: ['text'] })).toMatchObject({ status: 400 });
    expect(await call(e, 'POST', '/flow/quick', { raw: '{' })).toMatchObject({ status: 400, body: { message: 'malformed JSON body' } });

    const stats = (body: unknown) => call(e, 'POST', '/admin/stats', { body });
    expect(await stats({ execution_id: 'x' })).toMatchObject({ status: 400, body: { message: 'missing required parameters' } });
    expect(await stats({ execution_id: 'x', opCode: 'metrics' })).toMatchObject({ status: 400, body: { message: 'unsupported opCode: metrics' } });
    expect(await stats({ execution_id: 'x', opCode: 'exec_logs' })).toMatchObject({ status: 404, body: { message: 'execution not found' } });
    expect((await call(e, 'GET', '/flow/quick')).status).toBe(405);
  });
});

describe('emulator: the default flows file', () => {
  const emulator = emulatorPerFile();

  it('holds the documented example flows and runs echo at once', async () => {
    const text = readFileSync(new URL('../../emulator-flows.yaml', import.meta.url), 'utf8');
    const loaded = loadFlowsConfig(text, 'emulator-flows.yaml');
    expect(loaded.ok && Object.keys(loaded.value.flows)).toEqual(['summarize', 'assistant', 'classify', 'echo', 'slow-report', 'flaky-pipeline', 'rubric-judge']);

    const { executionId } = await start(emulator(), 'echo', { a: '1', b: 'two' });
    const [entry] = await logs(emulator(), executionId);
    expect(entry).toMatchObject({ count: '1', service: 'echo', status: 'completed', latency: { milliseconds: 0 } });
  });
});

describe('loadFlowsConfig', () => {
  it('reports every problem at its line and column', () => {
    const text = [
      'flows:',
      '  ok:',
      '    steps:',
      '      - { service: a, latency: 2 minutes }',
      '      - { service: b, fail_when: { text: "(" } }',
      '    outputs: { results: [] }',
      '  bad:',
      '    step: []',
    ].join('\n');
    const loaded = loadFlowsConfig(text, 'f.yaml');
    expect(loaded.ok).toBe(false);
    const issues = loaded.ok ? [] : loaded.issues.map((i) => `${i.line}:${i.col} ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        "4:32 flows.ok.steps[0].latency: \"2 minutes\" is not a duration like 120ms or 1.5s",
        expect.stringMatching(/^8:5 .*missing required key "steps"/),
        expect.stringMatching(/^8:5 .*unknown key "step" \(did you mean "steps"\?\)/),
      ]),
    );
  });

  it('refuses a step longer than an hour', () => {
    const loaded = loadFlowsConfig('flows:\n  f:\n    steps: [{ service: a, latency: 2h }, { service: b, latency: 3601s }]\n    outputs: { results: [] }\n', 'f.yaml');
    expect(loaded.ok ? [] : loaded.issues.map((i) => i.message)).toEqual([
      'flows.f.steps[0].latency: "2h" is not a duration like 120ms or 1.5s',
      'flows.f.steps[1].latency: must be at most 1h',
    ]);
  });

  it('reports an invalid fail_when expression at its value', () => {
    const text = 'flows:\n  f:\n    steps:\n      - service: a\n        fail_when: { text: "(" }\n    outputs: { results: [] }\n';
    const loaded = loadFlowsConfig(text, 'f.yaml');
    expect(loaded.ok ? [] : loaded.issues).toEqual([
      expect.objectContaining({ file: 'f.yaml', line: 5, message: expect.stringMatching(/fail_when\.text: not a valid regular expression/) }),
    ]);
  });

  it('refuses a fail_when pattern the linear-time engine cannot run, saying why, at its value', () => {
    const text = 'flows:\n  f:\n    steps:\n      - service: a\n        fail_when: { text: "^(?!ok)" }\n    outputs: { results: [] }\n';
    const loaded = loadFlowsConfig(text, 'f.yaml');
    expect(loaded.ok ? [] : loaded.issues).toEqual([
      expect.objectContaining({ line: 5, message: expect.stringMatching(/fail_when\.text: .*the negative lookahead \(\?!…\) is not supported/) }),
    ]);
  });

  it('refuses a YAML syntax error with its position, and a start with a bad file', async () => {
    const loaded = loadFlowsConfig('flows: [unclosed', 'f.yaml');
    expect(loaded.ok).toBe(false);
    await expect(startEmulator({ flows: { flows: { x: { steps: [], outputs: { results: [] } } } } })).rejects.toThrow(/steps/);
  });
});
