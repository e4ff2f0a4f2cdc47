import { describe, expect, it } from 'vitest';
import {
  httpsEndRule,
  httpsProgress,
  httpsWaitMs,
  nextPollDelay,
  wsEndRule,
  wsProgress,
  type HttpsEndRule,
  type PollHistory,
} from '../../../src/core/flows/index.js';
import type { ExecutionLogEntry } from '../../../src/core/model.js';
import { flowTest, step, wsMessage } from './builders.js';

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
    expect(httpsWaitMs(later, 5, 10_000)).toBe(100);
  });

  it('fails at once on a step that did not complete, whatever the rule', () => {
    const p = httpsProgress([step('retriever'), step('llm', 100, 'error')], undefined, { steps: 5, quietMs: 3000 }, 0);
    expect(p).toMatchObject({ state: 'failed', step: { service: 'llm' }, reason: 'step "llm" ended with status "error"' });
  });

  it('backs off from 50ms to at most 1s, never past the deadline', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map(nextPollDelay)).toEqual([50, 100, 200, 400, 800, 1000, 1000, 1000]);
    const running = httpsProgress([], undefined, { quietMs: 3000 }, 0);
    expect(httpsWaitMs(running, 6, 250)).toBe(250);
    expect(httpsWaitMs(running, 6, 0)).toBeUndefined();
  });
});

describe('WebSocket end rule', () => {
  const ack = wsMessage('ack');
  const n1 = wsMessage('completed', { nodeId: 'node-1', outputs: { results: [{ step: 1 }] } });
  const n2 = wsMessage('completed', { nodeId: 'node-2', outputs: { results: [{ step: 2 }] } });
  const n3 = wsMessage('completed', { nodeId: 'node-3', outputs: { results: [{ step: 3 }] } });

  it('is done at the completed message of until.node, with the last completed outputs', () => {
    const rule = { node: 'node-2', quietMs: 3000 };
    expect(wsProgress([ack, n1], rule, 0)).toEqual({ state: 'running' });
    expect(wsProgress([ack, n1, n2], rule, 0)).toEqual({ state: 'done', outputs: { results: [{ step: 2 }] } });
  });

  it('is done at the until.messages-th completed message (the ack does not count)', () => {
    const rule = { messages: 2, quietMs: 3000 };
    expect(wsProgress([ack, n1], rule, 10_000).state).toBe('running');
    expect(wsProgress([ack, n1, n2], rule, 0).state).toBe('done');
  });

  it('otherwise waits for quiet after the first completed message, not after the ack', () => {
    const rule = { quietMs: 500 };
    expect(wsProgress([ack], rule, 10_000)).toEqual({ state: 'running' });
    expect(wsProgress([ack, n1], rule, 200)).toEqual({ state: 'running', quietEndsInMs: 300 });
    expect(wsProgress([ack, n1, n2, n3], rule, 500)).toEqual({ state: 'done', outputs: { results: [{ step: 3 }] } });
  });

  it('fails at once on a non-200 statusCode', () => {
    const refused = { ...wsMessage('completed', { statusCode: 500 }), messageText: 'boom' };
    expect(wsProgress([ack, refused], { quietMs: 500 }, 0)).toMatchObject({
      state: 'failed',
      reason: 'message from summarize has statusCode 500: boom',
    });
    expect(wsProgress([{ ...ack, statusCode: Number.NaN }], { messages: 1, quietMs: 1 }, 0).state).toBe('failed');
  });

  it('takes node, messages and quiet from the test', () => {
    expect(wsEndRule(flowTest('  - name: t\n    until: { node: node-3, quiet: 2s, steps: 9 }\n'))).toEqual({ node: 'node-3', quietMs: 2000 });
  });
});
