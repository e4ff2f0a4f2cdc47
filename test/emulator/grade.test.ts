import { describe, expect, test } from 'vitest';
import { compileFlows, loadFlowsConfig } from '../../src/emulator/flows-config.js';
import { renderOutputs, startExecution } from '../../src/emulator/flow-run.js';
import { grade } from '../../src/emulator/grade.js';
import { readFileSync } from 'node:fs';

describe('the emulator\'s deterministic judge (grade:)', () => {
  test('the share of the rubric\'s words found (a word found by its first five letters); passes at half', () => {
    expect(grade({ text: 'o', rubric: 'r' }, { o: 'We apologise, Ada', r: 'apologises and names the customer' })).toEqual({
      'grade.pass': 'false',
      'grade.score': '0.33',
      'grade.reason': '1 of 3 rubric words found: apologises; missing: names, customer',
    });
    expect(grade({ text: 'o', rubric: 'r', pass_at: 0.3 }, { o: 'We apologise, Ada', r: 'apologises and names the customer' })['grade.pass']).toBe('true');
    expect(grade({ text: 'o', rubric: 'r' }, { o: 'anything', r: 'a b' })).toMatchObject({ 'grade.pass': 'false', 'grade.reason': 'the rubric has no word of four letters or more to look for' });
  });

  test('the built-in rubric-judge flow puts the grade in its outputs', () => {
    const loaded = loadFlowsConfig(readFileSync(new URL('../../emulator-flows.yaml', import.meta.url), 'utf8'), 'emulator-flows.yaml');
    if (!loaded.ok) throw new Error('flows');
    const flow = compileFlows(loaded.value).get('rubric-judge')!;
    expect(renderOutputs(startExecution(flow, { output: 'Your refund is on its way, sorry', rubric: 'mentions the refund' }, () => undefined))).toEqual({
      results: [{ pass: 'true', score: '0.50', reason: '1 of 2 rubric words found: refund; missing: mentions' }],
    });
  });
});
