import { describe, expect, it } from 'vitest';
import { expectedEndMs, httpsEndRule, httpsProgress, httpsWaitMs, nextPollDelay, wsEndRule, wsProgress, tallyOutputs, tallyWsMessages, type HttpsEndRule, type PollHistory, type WsEndRule } from '../../../src/core/runs/index.js';
import type { ExecutionLogEntry, WsServerMessage } from '../../../src/core/model.js';
import { flowTest, step, wsMessage } from '../flows/builders.js';

/** Polls at the given times, each seeing the given log; the state after each. */
function polls(rule: HttpsEndRule, seen: [number, ExecutionLogEntry[]][]): string[] {
  let history: PollHistory | undefined;
  return seen.map(([now, entries]) => {
    const p = httpsProgress(entries, history, rule, now);
    history = p.history;
    return p.state;
  });
}

describe('HTTPS end rule', () => {
  it('is done at until.steps logged steps, not before', () => {
    const rule = { steps: 3, quietMs: 3000 };
    expect(polls(rule, [[0, []], [50, [step('a')]], [150, [step('a'), step('b')]], [10_000, [step('a'), step('b')]], [10_050, [step('a'), step('b'), step('c')]]])).toEqual([
      'running',
      'running',
      'running',
      'running',
      'done',
    ]);
  });

  it('takes expect.steps.count as the step count when until.steps is not given', () => {
    expect(httpsEndRule(flowTest('  - name: t\n    expect: { steps: { count: 2 } }\n'))).toEqual({ steps: 2, quietMs: 3000 });
    expect(httpsEndRule(flowTest('  - name: t\n    until: { steps: 4, quiet: 1s }\n    expect: { steps: { count: 2 } }\n'))).toEqual({ steps: 4, quietMs: 1000 });
    expect(httpsEndRule(flowTest('  - name: t\n'))).toEqual({ quietMs: 3000 });
  });

  it('otherwise is done once the non-empty log has not changed for the quiet period', () => {
    const rule = { quietMs: 300 };
    const one = [step('a')];
    const two = [step('a'), step('b')];
    expect(polls(rule, [[0, []], [500, []], [600, one], [800, one], [850, two], [1100, two], [1150, two]])).toEqual([
      'running', // empty log never counts as quiet
      'running',
      'running', // changed at 600
      'running',
      'running', // changed again at 850
      'running', // 250ms quiet
      'done', // 300ms quiet
    ]);
  });

  it('tells the runner how long is left of the quiet period', () => {
    const first = httpsProgress([step('a')], undefined, { quietMs: 300 }, 1000);
    const later = httpsProgress([step('a')], first.history, { quietMs: 300 }, 1200);
    expect(later).toMatchObject({ state: 'running', quietEndsInMs: 100 });
    expect(httpsWaitMs(later, 1200, 10_000)).toBe(100);
  });

  it('fails at once on a step that did not complete, whatever the rule', () => {
    const p = httpsProgress([step('retriever'), step('llm', 100, 'error')], undefined, { steps: 5, quietMs: 3000 }, 0);
    expect(p).toMatchObject({ state: 'failed', step: { service: 'llm' }, reason: 'step "llm" ended with status "error"' });
  });

  it('waits a fifth of the time since the start, from 25ms to 1s, never past the deadline', () => {
    expect([0, 50, 125, 500, 2_000, 5_000, 60_000].map(nextPollDelay)).toEqual([25, 25, 25, 100, 400, 1000, 1000]);
    const running = httpsProgress([], undefined, { quietMs: 3000 }, 0);
    expect(httpsWaitMs(running, 10_000, 250)).toBe(250);
    expect(httpsWaitMs(running, 10_000, 0)).toBeUndefined();
  });

  it('sees the end of a flow at most a fifth of its duration late, and polls a 10s flow about 30 times', () => {
    const running = httpsProgress([], undefined, { quietMs: 3000 }, 0);
    /** Polls answered at once, the first at 0: when the first one at or after `endMs` is sent, and how many were. */
    const seen = (endMs: number) => {
      let at = 0;
      let polls = 1;
      for (; at < endMs; polls++) at += httpsWaitMs(running, at, Infinity)!;
      return { at, polls };
    };
    for (const endMs of [1, 30, 199, 200, 1_234, 9_999, 45_000]) {
      expect(seen(endMs).at - endMs).toBeLessThanOrEqual(Math.max(25, Math.min(1000, endMs * 0.2)));
    }
    expect(seen(200).at).toBeLessThan(220);
    expect(seen(10_000).polls).toBeGreaterThanOrEqual(25);
    expect(seen(10_000).polls).toBeLessThanOrEqual(35);
  });

  it('polls when the step latencies of an earlier execution say the flow ends, never later than the pace', () => {
    const rule = { steps: 3, quietMs: 3000 };
    expect(expectedEndMs([50, 120, 30], rule, 1)).toBe(200);
    expect(expectedEndMs([50, 120, 30], { steps: 2, quietMs: 3000 }, 0)).toBe(170);
    expect(expectedEndMs([50, 120, 30], { quietMs: 3000 }, 2)).toBe(200);
    expect(expectedEndMs([50, 120, 30], { quietMs: 3000 }, 3)).toBeUndefined(); // every step is logged
    expect(expectedEndMs([50, 120], rule, 0)).toBeUndefined(); // the earlier execution had fewer steps
    expect(expectedEndMs(undefined, rule, 0)).toBeUndefined();
    const running = httpsProgress([step('a')], undefined, rule, 150);
    expect(httpsWaitMs(running, 150, 10_000, 12)).toBe(12);
    expect(httpsWaitMs(running, 150, 10_000, 80)).toBe(30);
    expect(httpsWaitMs(running, 150, 10_000, -5)).toBe(30); // an expected end already passed
  });
});

/** The WebSocket progress once `messages` have come, tallied one by one as the runner does. */
function progressAfter(messages: WsServerMessage[], rule: WsEndRule, msSinceLast: number) {
  return wsProgress(tallyWsMessages(messages, rule), rule, msSinceLast);
}

describe('WebSocket end rule', () => {
  const ack = wsMessage('ack');
  const n1 = wsMessage('completed', { nodeId: 'node-1', outputs: { results: [{ step: 1 }] } });
  const n2 = wsMessage('completed', { nodeId: 'node-2', outputs: { results: [{ step: 2 }] } });
  const n3 = wsMessage('completed', { nodeId: 'node-3', outputs: { results: [{ step: 3 }] } });

  it('is done at the completed message of until.node, with the last completed outputs', () => {
    const rule = { node: 'node-2', quietMs: 3000 };
    expect(progressAfter([ack, n1], rule, 0)).toEqual({ state: 'running' });
    expect(progressAfter([ack, n1, n2], rule, 0)).toEqual({ state: 'done', by: 'until' });
    expect(tallyOutputs(tallyWsMessages([ack, n1, n2], rule))).toEqual({ results: [{ step: 2 }] });
  });

  it('is done at the until.messages-th completed message (the ack does not count)', () => {
    const rule = { messages: 2, quietMs: 3000 };
    expect(progressAfter([ack, n1], rule, 10_000).state).toBe('running');
    expect(progressAfter([ack, n1, n2], rule, 0).state).toBe('done');
  });

  it('otherwise waits for quiet after the first completed message, not after the ack', () => {
    const rule = { quietMs: 500 };
    expect(progressAfter([ack], rule, 10_000)).toEqual({ state: 'running' });
    expect(progressAfter([ack, n1], rule, 200)).toEqual({ state: 'running', quietEndsInMs: 300 });
    expect(progressAfter([ack, n1, n2, n3], rule, 500)).toEqual({ state: 'done', by: 'quiet' });
    expect(tallyOutputs(tallyWsMessages([ack, n1, n2, n3], rule))).toEqual({ results: [{ step: 3 }] });
  });

  it('fails at once on a non-200 statusCode', () => {
    const refused = { ...wsMessage('completed', { statusCode: 500 }), messageText: 'boom' };
    expect(progressAfter([ack, refused], { quietMs: 500 }, 0)).toMatchObject({
      state: 'failed',
      reason: 'message from summarize has statusCode 500: boom',
    });
    expect(progressAfter([{ ...ack, statusCode: Number.NaN }], { messages: 1, quietMs: 1 }, 0).state).toBe('failed');
  });

  it('takes node, messages and quiet from the test', () => {
    expect(wsEndRule(flowTest('  - name: t\n    until: { node: node-3, quiet: 2s, steps: 9 }\n'))).toEqual({ node: 'node-3', quietMs: 2000 });
  });
});
