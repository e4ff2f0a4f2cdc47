import { describe, expect, test } from 'vitest';
import { parseJudges, judgeInputs, majority, readVote, verdictDigest, type Vote } from '../../../src/core/flows/judges/index.js';
import { evaluateTest, type JudgeRecord } from '../../../src/core/flows/index.js';
import { flowTest, wsMessage } from '../flows/builders.js';
import type { ExecutionResult } from '../../../src/core/flows/index.js';

const judge = parseJudges({ rubric: { flow: 'rubric-judge', inputs: { text: 'Judge ${output} by ${rubric}; ref ${reference}; keep ${other}' } } }).judges['rubric']!;
const spec = { name: 'rubric', rubric: 'is polite', votes: 3 };

describe('judge core', () => {
  test('inputs: ${output}, ${rubric}, ${reference} put in; anything else left', () => {
    expect(judgeInputs(judge, 'Hi', spec)).toEqual({ text: 'Judge Hi by is polite; ref ; keep ${other}' });
  });

  test('the digest changes with the output, the rubric, the reference, the votes and the judge Role', () => {
    const base = verdictDigest(judge, 'out', spec, 'role text');
    expect(verdictDigest(judge, 'out', spec, 'role text')).toBe(base);
    for (const other of [
      verdictDigest(judge, 'out!', spec, 'role text'),
      verdictDigest(judge, 'out', { ...spec, rubric: 'is rude' }, 'role text'),
      verdictDigest(judge, 'out', { ...spec, reference: 'r' }, 'role text'),
      verdictDigest(judge, 'out', { ...spec, votes: 5 }, 'role text'),
      verdictDigest(judge, 'out', spec, 'role text, edited'),
    ]) expect(other).not.toBe(base);
  });

  test('a vote reads pass, score and reason at the verdict paths, tolerantly', () => {
    expect(readVote(judge, { results: [{ pass: 'true', score: '0.75', reason: 'ok' }] }, {})).toEqual({ ids: {}, pass: true, score: 0.75, reason: 'ok' });
    expect(readVote(judge, { results: [{ pass: false }] }, {})).toEqual({ ids: {}, pass: false });
    expect(readVote(judge, { results: [{ pass: 'maybe' }] }, {}).error).toBe('the judge\'s outputs hold no verdict at results[0].pass (got "maybe")');
  });

  test('the majority decides; errors count against; every reason kept; scores averaged', () => {
    const v = (pass: boolean | undefined, score?: number): Vote => ({ ids: { connection_id: `c${score}` }, ...(pass === undefined ? { error: 'down' } : { pass }), ...(score === undefined ? {} : { score, reason: `r${score}` }) });
    expect(majority('j', 'd', [v(true, 1), v(false, 0), v(true, 0.5)])).toMatchObject({ verdict: 'pass', score: 0.5, reasons: ['r1', 'r0', 'r0.5'] });
    expect(majority('j', 'd', [v(true, 1), v(undefined), v(false, 0)]).verdict).toBe('fail');
    expect(majority('j', 'd', [v(undefined), v(undefined), v(true, 1)])).toMatchObject({ verdict: 'error', reasons: ['error: down', 'error: down', 'r1'] });
  });
});

describe('judge assertions in evaluateTest', () => {
  const test1 = flowTest('  - name: t\n    expect:\n      outputs:\n        - { path: "results[0]", judge: rubric, rubric: polite, min_score: 0.6 }\n');
  const execution: ExecutionResult = { transport: 'ws', status: 'ok', endedBy: 'until', wallMs: 5, outputs: { results: ['hello'] }, messages: [wsMessage('completed')] };
  const record = (verdict: JudgeRecord['verdict'], score?: number): JudgeRecord => ({ judge: 'rubric', digest: 'sha256:x', verdict, reasons: ['because'], executions: [], ...(score === undefined ? {} : { score }) });

  test('passes on a pass verdict at min_score; fails below it; the record travels with the result', () => {
    const [ok] = evaluateTest(test1, execution, { judged: () => record('pass', 0.8) });
    expect(ok).toMatchObject({ status: 'pass', judge: { verdict: 'pass' } });
    const [low] = evaluateTest(test1, execution, { judged: () => record('pass', 0.5) });
    expect(low).toMatchObject({ status: 'fail', message: expect.stringContaining('below min_score 0.6') });
    const [failed] = evaluateTest(test1, execution, { judged: () => record('fail', 0.9) });
    expect(failed!.status).toBe('fail');
  });

  test('--no-judge, or no verdict, is skipped: never passed', () => {
    expect(evaluateTest(test1, execution, { noJudge: true, judged: () => record('pass', 1) })[0]).toMatchObject({ status: 'skip', message: expect.stringContaining('--no-judge') });
    expect(evaluateTest(test1, execution, {})[0]!.status).toBe('skip');
  });

  test('votes must be odd and a rubric is needed', () => {
    expect(() => flowTest('  - name: t\n    expect:\n      outputs:\n        - { path: results, judge: rubric, rubric: x, votes: 2 }\n')).toThrow(/votes 2 is even/);
    expect(() => flowTest('  - name: t\n    expect:\n      outputs:\n        - { path: results, judge: rubric }\n')).toThrow(/judge needs a rubric/);
  });
});
