import { describe, expect, test } from 'vitest';
import { evaluateTest, type ExecutionResult } from '../../../src/core/flows/index.js';
import { flowTest, wsMessage } from './builders.js';

const run = (outputs: unknown): ExecutionResult => ({ transport: 'ws', status: 'ok', endedBy: 'until', wallMs: 5, outputs, messages: [wsMessage('completed')] });

describe('similar', () => {
  const t = flowTest('  - name: t\n    expect:\n      outputs:\n        - { path: "results[0]", similar: { to: "your refund is on its way", metric: token-f1, gte: 0.8 } }\n');

  test('passes at or above gte, fails below it with the score', () => {
    expect(evaluateTest(t, run({ results: ['Your refund is on its way!'] }))[0]!.status).toBe('pass');
    const [bad] = evaluateTest(t, run({ results: ['no refund for you'] }));
    expect(bad).toMatchObject({ status: 'fail', actual: expect.stringMatching(/^token-f1 0\.\d+: "no refund for you"$/) });
  });

  test('a value that is not text fails, saying why', () => {
    expect(evaluateTest(t, run({ results: [42] }))[0]!.message).toContain('similar applies to a string');
  });
});

describe('tolerant snapshots', () => {
  const t = flowTest('  - name: t\n    expect:\n      outputs:\n        - { path: "results[0]", snapshot: { tolerance: { metric: rouge-l, gte: 0.7 } } }\n');
  const stored = (value: unknown) => ({ snapshots: new Map([['t [ws] results[0]', { value, source: 'file' as const }]]) });

  test('within tolerance it passes, the diff still shown; beyond it fails', () => {
    const [near] = evaluateTest(t, run({ results: ['the cat sat on the mat today'] }), stored('the cat sat on the mat'));
    expect(near).toMatchObject({ status: 'pass', message: expect.stringContaining('within its tolerance (rouge-l 0.923 >= 0.7)'), diff: expect.stringContaining('+') });
    const [far] = evaluateTest(t, run({ results: ['something else entirely'] }), stored('the cat sat on the mat'));
    expect(far).toMatchObject({ status: 'fail', message: expect.stringContaining('beyond its tolerance (rouge-l 0 < 0.7)') });
  });
});
