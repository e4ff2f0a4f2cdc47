import { afterAll, describe, expect, it } from 'vitest';
import { parseFlowTestFile } from '../../src/core/flows/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { loadSchema } from '../../src/files/package-root.js';
import { runTests } from '../../src/run/flows/flow-tests.js';
import { selectRuns } from '../../src/core/runs/select.js';
import { clientFor, closedPort } from './client-kit.js';

const emulators: RunningEmulator[] = [];
afterAll(async () => {
  for (const e of emulators) await e.close();
});

function runsOf(yaml: string, hasWs = true) {
  const file = parseFlowTestFile(yaml, 'flows/t.yaml', loadSchema('flow-test'));
  if (!file.ok) throw new Error(JSON.stringify(file.issues));
  return selectRuns([file.value], { hasWs, env: {} }).runs;
}

const STEP = {
  flows: {
    step: { steps: [{ service: 's', latency: 40 }], outputs: { results: [{ ok: 'yes' }] } },
    // Longer than any test may take: a run that waits for it fails by the test's timeout.
    slow: { steps: [{ service: 's', latency: 3_600_000 }], outputs: { results: [] } },
  },
};

describe('the run loop', () => {
  it('runs every test × transport × repeat, never more than --concurrency at once', async () => {
    const emulator = await startEmulator({ flows: STEP });
    emulators.push(emulator);
    const { client } = clientFor(emulator);
    let active = 0;
    let most = 0;
    const outcome = await runTests({
      client,
      runs: runsOf('flow: step\ndefaults: { until: { steps: 1, node: node-1 } }\ntests:\n  - { name: a, repeat: 3 }\n  - { name: b, repeat: 2 }\n'),
      concurrency: 2,
      bail: false,
      events: {
        started: () => (most = Math.max(most, ++active)),
        finished: () => void active--,
      },
    });
    expect(most).toBe(2);
    expect(outcome.results.map((r) => [r.name, r.transport, r.status, r.repeats.length])).toEqual([
      ['a', 'https', 'pass', 3],
      ['a', 'ws', 'pass', 3],
      ['b', 'https', 'pass', 2],
      ['b', 'ws', 'pass', 2],
    ]);
    await client.close();
  });

  it('stops starting executions when the tenant cannot be reached, and says why', async () => {
    const port = await closedPort();
    const { client } = clientFor({ baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, token: 'tok-123456' }, { retries: 0 });
    let started = 0;
    const outcome = await runTests({
      client,
      runs: runsOf('flow: step\ntransport: https\ntests:\n  - { name: a, repeat: 5 }\n', false),
      concurrency: 1,
      bail: false,
      events: { started: () => void started++ },
    });
    expect(started).toBe(1);
    expect(outcome.tenantProblem).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/);
    expect(outcome.bailed).toBe(false);
    await client.close();
  });

  it('once the signal is aborted, ends what runs as interrupted at once (polling, waiting for a message) and starts nothing new', async () => {
    const emulator = await startEmulator({ flows: STEP });
    emulators.push(emulator);
    const { client } = clientFor(emulator);
    const controller = new AbortController();
    let started = 0;
    const running = runTests({
      client,
      runs: runsOf('flow: slow\ndefaults: { until: { steps: 1, node: node-1 }, timeout: 2h }\ntests:\n  - { name: a }\n  - { name: b }\n'),
      concurrency: 2,
      bail: false,
      signal: controller.signal,
      events: { started: () => void started++ },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    // The flow's step and the tests' timeout are hours away: only the abort can end the run.
    const outcome = await running;
    expect(started).toBe(2);
    expect(outcome.interrupted).toBe(true);
    expect(outcome.results.map((r) => [r.name, r.transport, r.status, r.repeats[0]!.ended_by ?? 'not started'])).toEqual([
      ['a', 'https', 'not_run', 'interrupted'],
      ['a', 'ws', 'not_run', 'interrupted'],
      ['b', 'https', 'not_run', 'not started'],
      ['b', 'ws', 'not_run', 'not started'],
    ]);
    expect(outcome.results[0]!.message).toBe('not run: the run was interrupted (0 of 1 repeats ran)');
    await client.close();
  });
});
