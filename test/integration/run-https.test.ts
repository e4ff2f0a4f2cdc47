import { afterAll, describe, expect, it } from 'vitest';
import { evaluateTest } from '../../src/core/flows/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runHttps } from '../../src/run/flows/flow-https.js';
import { realClock, tenantProblem, type RunClock } from '../../src/run/flows/flow-shared.js';
import type { TenantClient } from '../../src/core/model.js';
import { flowTest } from '../core/flows/builders.js';
import { clientFor, closedPort } from './client-kit.js';

const FLOWS = {
  flows: {
    three: {
      steps: [
        { service: 'retriever', latency: 30 },
        { service: 'llm', latency: 1020 },
        { service: 'formatter', latency: 10 },
      ],
      outputs: { results: [{ ok: 'yes' }] },
    },
    quick: { steps: [{ service: 'a', latency: 20 }, { service: 'b', latency: 20 }], outputs: { results: [] } },
    breaks: {
      steps: [
        { service: 'fetch', latency: 40 },
        { service: 'crash', latency: 30, fail: true },
        { service: 'never', latency: 10 },
      ],
      outputs: { results: [] },
    },
    slow: { steps: [{ service: 'slowpoke', latency: 150 }], outputs: { results: [] } },
    paced: { steps: [{ service: 'plan', latency: 180 }, { service: 'write', latency: 200 }], outputs: { results: [] } },
    // Longer than any test may take: only a timeout or an interrupt ends it in time.
    forever: { steps: [{ service: 'sleeper', latency: 3_600_000 }], outputs: { results: [] } },
  },
};

const emulators: RunningEmulator[] = [];
afterAll(async () => {
  for (const e of emulators) await e.close();
});

async function tenant() {
  const emulator = await startEmulator({ flows: FLOWS });
  emulators.push(emulator);
  return { emulator, ...clientFor(emulator) };
}

const polls = (emulator: RunningEmulator) => emulator.requests().filter((r) => r.path === '/admin/stats').length;

/**
 * The runner's decisions, not the machine's speed: a real clock that records, for each sleep, the
 * moment the runner asked to be woken (its last reading of the clock + the sleep), and the
 * runner's reading of the clock when the start was answered (the first after the start resolves).
 */
function watchSchedule(client: TenantClient) {
  let lastNow = 0;
  let startAnswered = false;
  const seen = { startAnsweredAt: undefined as number | undefined, wakeAt: [] as number[] };
  const clock: RunClock = {
    now: () => {
      lastNow = realClock.now();
      if (startAnswered && seen.startAnsweredAt === undefined) seen.startAnsweredAt = lastNow;
      return lastNow;
    },
    sleep: (ms) => {
      seen.wakeAt.push(lastNow + ms);
      return realClock.sleep(ms);
    },
  };
  const watched = new Proxy(client, {
    get(target, key) {
      if (key === 'startFlow') {
        return (...args: Parameters<TenantClient['startFlow']>) =>
          target.startFlow(...args).then((answer) => ((startAnswered = true), answer));
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { clock, client: watched, seen };
}

describe('HTTPS runner against the emulator', () => {
  it('runs a flow to its last step and reports the latency the service reported, apart from wall-clock', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    until: { steps: 3 }\n', 'flow: three\n');
    const result = await runHttps(client, test, {});
    expect(result).toMatchObject({ transport: 'https', status: 'ok', endedBy: 'until' });
    // {seconds: 1, milliseconds: 20} for the llm step, read as its parts.
    expect(result.steps!.map((s) => [s.service, s.latencyMs])).toEqual([
      ['retriever', 30],
      ['llm', 1020],
      ['formatter', 10],
    ]);
    expect(result.wallMs).toBeGreaterThanOrEqual(1060);
    await client.close();
  });

  it('ends polling at once on a failed step, with no sleep after the last poll', async () => {
    const { emulator, client } = await tenant();
    const test = flowTest('  - name: t\n    until: { steps: 3 }\n', 'flow: breaks\n');
    const schedule = watchSchedule(client);
    const result = await runHttps(schedule.client, test, {}, { clock: schedule.clock });
    expect(result).toMatchObject({ status: 'failed', endedBy: 'failed_step' });
    expect(result.error).toMatch(/^flow "breaks" over HTTPS: step "crash" ended with status "failed"/);
    expect(result.steps!.map((s) => s.service)).toEqual(['fetch', 'crash']);
    // The crash is logged at 70ms: polls at about 0, 25, 50, 75ms find it; never the 3 steps asked for.
    expect(polls(emulator)).toBeLessThanOrEqual(4);
    // A sleep before each poll but the first, none after the last.
    expect(schedule.seen.wakeAt).toHaveLength(polls(emulator) - 1);
    expect(evaluateTest(test, result)[0]).toMatchObject({ kind: 'execution', status: 'fail' });
    await client.close();
  });

  it('polls a flow when its earlier execution says it ends, instead of up to a fifth later', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    until: { steps: 2 }\n', 'flow: paced\n');
    const paces = new Map<string, readonly number[]>();
    const first = await runHttps(client, test, {}, { paces });
    expect(first.status).toBe('ok');
    expect(paces.get('paced')).toEqual([180, 200]);
    // Over at 380ms, when the pace alone polls every 60-90ms: knowing the steps, the runner wakes
    // for its last poll no later than 380ms after the start was answered (within a millisecond:
    // the test reads the clock just after the runner does), and that poll ends it. Without the
    // known steps the last poll is the first past 380ms. (A poll of the pace may find it over a
    // little before: the tenant began the execution before its answer to the start arrived.)
    for (let i = 0; i < 3; i++) {
      const schedule = watchSchedule(client);
      const again = await runHttps(schedule.client, test, {}, { paces, clock: schedule.clock });
      expect(again.status).toBe('ok');
      const lastWake = schedule.seen.wakeAt.at(-1)! - schedule.seen.startAnsweredAt!;
      expect(lastWake).toBeGreaterThan(300);
      expect(lastWake).toBeLessThan(381);
    }
    await client.close();
  });

  it('ends after a quiet period when no step count is known', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    until: { quiet: 120ms }\n', 'flow: quick\n');
    const result = await runHttps(client, test, {});
    expect(result.status).toBe('ok');
    expect(result.steps).toHaveLength(2);
    expect(result.wallMs).toBeGreaterThanOrEqual(40 + 120);
    await client.close();
  });

  it('fails a step budget with the server-reported latency of the slow step', async () => {
    const { client } = await tenant();
    const test = flowTest(
      '  - name: t\n    expect:\n      steps: { count: 1 }\n      latency: { steps: { slowpoke: "< 100ms" } }\n',
      'flow: slow\n',
    );
    const result = await runHttps(client, test, {});
    const budget = evaluateTest(test, result).find((a) => a.kind === 'latency')!;
    expect(budget).toMatchObject({ status: 'fail', line: 6 });
    expect(budget.message).toContain('got 150ms (max of 1 step, server-reported)');
    await client.close();
  });

  it('turns a flow that runs past its timeout into an error, on time', async () => {
    const { client } = await tenant();
    const test = flowTest('  - name: t\n    timeout: 300ms\n    until: { steps: 1 }\n', 'flow: forever\n');
    const result = await runHttps(client, test, {});
    expect(result.status).toBe('error');
    expect(result.error).toBe('flow "forever" over HTTPS: timed out after 300ms waiting for 1 steps (0 steps logged)');
    expect(tenantProblem(result)).toBeUndefined();
    await client.close();
  });

  it('names the flow and the status when the flow cannot start', async () => {
    const { client } = await tenant();
    const result = await runHttps(client, flowTest('  - name: t\n', 'flow: no-such-flow\n'), {});
    expect(result.status).toBe('error');
    expect(result.error).toBe('flow "no-such-flow" over HTTPS: POST /flow/no-such-flow: 404 flow not found: no-such-flow');
    expect(tenantProblem(result)).toBeUndefined();
    await client.close();
  });

  it('marks an unreachable or token-refusing tenant as a problem of the whole tenant', async () => {
    const port = await closedPort();
    const down = clientFor({ baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, token: 'tok-123456' });
    const unreachable = await runHttps(down.client, flowTest('  - name: t\n', 'flow: three\n'), {});
    expect(tenantProblem(unreachable)).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
    await down.client.close();

    const { emulator } = await tenant();
    const wrong = clientFor(emulator, {}, 'not-the-token');
    const refused = await runHttps(wrong.client, flowTest('  - name: t\n', 'flow: three\n'), {});
    expect(tenantProblem(refused)).toBe(`POST /flow/three: 401 unauthorized: tenant "test" at ${emulator.baseUrl} refused its token`);
    expect(JSON.stringify(refused)).not.toContain('not-the-token');
    await wrong.client.close();
  });
});
