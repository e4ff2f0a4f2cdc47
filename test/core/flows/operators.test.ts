import { describe, expect, it } from 'vitest';
import { evaluateTest, type AssertionResult } from '../../../src/core/flows/index.js';
import { flowTest, ws } from './builders.js';

const OUTPUTS = {
  results: [{ summary: 'Refund issued for order 42', score: 0.93, tags: ['billing', 'Refund'], count: '7' }],
  meta: { 'a.b': 1, empty: null },
};

/** One output assertion (a YAML flow map) over OUTPUTS, over WebSocket. */
function check(assertion: string, outputs: unknown = OUTPUTS): AssertionResult {
  const test = flowTest(`  - name: t\n    expect:\n      outputs:\n        - ${assertion}\n`);
  const [result] = evaluateTest(test, ws({ outputs }));
  return result!;
}

const status = (assertion: string): string => check(assertion).status;

describe('output assertions', () => {
  it('equals compares deeply', () => {
    expect(status('{ path: "results[0].score", equals: 0.93 }')).toBe('pass');
    expect(status('{ path: "results[0].tags", equals: [billing, Refund] }')).toBe('pass');
    expect(status('{ path: "results[0].score", equals: "0.93" }')).toBe('fail');
    expect(status('{ path: "results[0].score", not: true, equals: 1 }')).toBe('pass');
  });

  it('contains: text in a string, or an element of an array', () => {
    expect(status('{ path: "results[0].summary", contains: "order 42" }')).toBe('pass');
    expect(status('{ path: "results[0].summary", contains: refund }')).toBe('fail');
    expect(status('{ path: "results[0].tags", contains: billing }')).toBe('pass');
    expect(status('{ path: "results[0].tags", not: true, contains: shipping }')).toBe('pass');
  });

  it('icontains ignores case', () => {
    expect(status('{ path: "results[0].summary", icontains: REFUND }')).toBe('pass');
    expect(status('{ path: "results[0].tags", icontains: refund }')).toBe('pass');
    expect(status('{ path: "results[0].summary", icontains: shipped }')).toBe('fail');
    expect(status('{ path: "results[0].summary", not: true, icontains: refund }')).toBe('fail');
  });

  it('matches a regular expression, /re/flags included', () => {
    expect(status('{ path: "results[0].summary", matches: "order \\\\d+$" }')).toBe('pass');
    expect(status('{ path: "results[0].summary", matches: "/^refund/i" }')).toBe('pass');
    expect(status('{ path: "results[0].summary", matches: "^refund" }')).toBe('fail');
    expect(status('{ path: "results[0].summary", not: true, matches: "^refund" }')).toBe('pass');
  });

  it('exists and its negation, the idiom for absence', () => {
    expect(status('{ path: results.0.summary, exists: true }')).toBe('pass');
    expect(status('{ path: "results[1]", exists: true }')).toBe('fail');
    expect(status('{ path: error, exists: false }')).toBe('pass');
    expect(status('{ path: error, not: true, exists: true }')).toBe('pass');
    expect(status('{ path: meta.empty, exists: true }')).toBe('pass');
  });

  it('length as a number or a comparison', () => {
    expect(status('{ path: results, length: 1 }')).toBe('pass');
    expect(status('{ path: results, length: { gte: 1, lt: 3 } }')).toBe('pass');
    expect(status('{ path: "results[0].summary", length: { lt: 5 } }')).toBe('fail');
    expect(status('{ path: results, not: true, length: 0 }')).toBe('pass');
  });

  it('numeric comparisons, numeric strings included', () => {
    expect(status('{ path: "results[0].score", gt: 0.9 }')).toBe('pass');
    expect(status('{ path: "results[0].score", gte: 0.93 }')).toBe('pass');
    expect(status('{ path: "results[0].score", lt: 0.5 }')).toBe('fail');
    expect(status('{ path: "results[0].count", lte: 7 }')).toBe('pass');
    expect(status('{ path: "results[0].score", not: true, gt: 0.99 }')).toBe('pass');
  });

  it('schema validates the value', () => {
    const schema = '{ type: object, required: [summary], properties: { score: { type: number, maximum: 1 } } }';
    expect(status(`{ path: "results[0]", schema: ${schema} }`)).toBe('pass');
    const bad = check(`{ path: meta, schema: ${schema} }`);
    expect(bad.status).toBe('fail');
    expect(bad.message).toContain('missing required key "summary"');
    expect(status(`{ path: meta, not: true, schema: ${schema} }`)).toBe('pass');
  });

  it('schema failures name what was found and suggest the key meant', () => {
    const typed = check('{ path: "results[0]", schema: { properties: { score: { type: string }, tags: { type: object } } } }');
    expect(typed.message).toContain('score: must be string, got number');
    expect(typed.message).toContain('tags: must be object, got array');
    expect(typed.message).not.toContain('undefined');
    const closed = check('{ path: "results[0]", schema: { properties: { summary: {}, score: {}, tags: {}, counts: {} }, additionalProperties: false } }');
    expect(closed.message).toContain('unknown key "count" (did you mean "counts"?)');
  });

  it('reads keys holding dots and indexes from the end', () => {
    expect(status('{ path: \'meta["a.b"]\', equals: 1 }')).toBe('pass');
    expect(status('{ path: "results[-1].score", equals: 0.93 }')).toBe('pass');
  });

  it('shows expected and actual on a failure', () => {
    const r = check('{ path: "results[0].summary", icontains: shipped }');
    expect(r).toMatchObject({
      kind: 'output',
      label: 'results[0].summary icontains "shipped"',
      expected: 'to contain "shipped" (ignoring case)',
      actual: '"Refund issued for order 42"',
      message: 'results[0].summary: expected to contain "shipped" (ignoring case), got "Refund issued for order 42"',
      line: 6,
      col: 11,
    });
  });

  it('fails on a missing path whatever the operator, even negated', () => {
    const r = check('{ path: "results[0].title", not: true, contains: sorry }');
    expect(r.status).toBe('fail');
    expect(r.message).toBe('results[0].title: expected not to contain "sorry", got nothing (path not found)');
  });

  it('fails, saying why, when the operator cannot apply to the value', () => {
    const r = check('{ path: "results[0].score", not: true, contains: x }');
    expect(r.status).toBe('fail');
    expect(r.message).toBe('results[0].score: expected not to contain "x", got 0.93 (contains applies to a string or an array)');
    expect(check('{ path: "results[0].summary", gt: 1 }').message).toContain('(gt applies to a number)');
  });

  it('never reads inherited properties', () => {
    expect(status('{ path: results.constructor, exists: true }')).toBe('fail');
  });
});
