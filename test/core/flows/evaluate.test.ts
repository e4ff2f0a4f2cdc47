import { describe, expect, it } from 'vitest';
import { evaluateLatencyAcrossRepeats, evaluateTest, summariseRepeats } from '../../../src/core/flows/index.js';
import { flowTest, https, step, ws } from './builders.js';

const STEPS_TEST = flowTest(`  - name: steps
    expect:
      steps:
        count: 3
        sequence: [retriever, formatter]
        each: { status: completed, service_type: ai_services }
`);

const LOG = [step('retriever', 120), step('llm', 2500), step('formatter', 40)];

const brief = (results: { label: string; status: string }[]) => results.map((r) => `${r.status} ${r.label}`);

describe('steps assertions (HTTPS)', () => {
  it('pass on a log with the count, the services in order and the fields', () => {
    expect(brief(evaluateTest(STEPS_TEST, https({ steps: LOG })))).toEqual([
      'pass steps.count 3',
      'pass steps.sequence retriever → formatter',
      'pass steps.each status "completed", service_type "ai_services"',
    ]);
  });

  it('fail with expected and actual', () => {
    const results = evaluateTest(STEPS_TEST, https({ steps: [step('formatter'), step('retriever', 10, 'completed'), { ...step('llm'), serviceType: 'other' }] }));
    expect(results.map((r) => r.message)).toEqual([
      'steps.count 3: 3 steps (formatter → retriever → llm)',
      'steps.sequence retriever → formatter: expected retriever → formatter in this order, got formatter → retriever → llm: "formatter" missing or out of order',
      'steps.each status "completed", service_type "ai_services": expected status "completed", service_type "ai_services" on every step, got step 3 "llm" service_type "other"',
    ]);
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail', 'fail']);
    const short = evaluateTest(STEPS_TEST, https({ steps: LOG.slice(0, 2) }))[0]!;
    expect(short).toMatchObject({ status: 'fail', expected: '3 steps', actual: '2 steps (retriever → llm)', line: 6, col: 16 });
  });

  it('never pass "each" on an empty log', () => {
    expect(evaluateTest(STEPS_TEST, https({ steps: [] }))[2]).toMatchObject({ status: 'fail', actual: 'no steps were logged' });
  });

  it('are skipped over WebSocket, with the reason, never passed', () => {
    const results = evaluateTest(STEPS_TEST, ws({ outputs: { results: [] } }));
    expect(results.map((r) => r.status)).toEqual(['skip', 'skip', 'skip']);
    expect(results[0]!.message).toBe('steps.count 3: skipped: the WebSocket transport has no execution logs');
  });
});

describe('outputs over HTTPS', () => {
  it('are skipped when the runner has no outputs for the execution', () => {
    const test = flowTest('  - name: t\n    expect: { outputs: [{ path: results, exists: true }] }\n');
    expect(evaluateTest(test, https({ steps: LOG }))).toMatchObject([
      { status: 'skip', message: 'results exists true: skipped: the HTTPS execution logs carry no outputs' },
    ]);
    expect(evaluateTest(test, https({ steps: LOG, outputs: { results: [] } }))[0]!.status).toBe('pass');
  });
});

const LATENCY_TEST = flowTest(`  - name: latency
    expect:
      latency:
        total: "< 3s"
        steps: { retriever: "< 500ms", "llm*": { p95: "< 3s", max: "<= 2.5s" }, "fmt*": "< 1s" }
`);

describe('latency budgets on one execution', () => {
  it('checks the wall-clock total and the max of every matching step', () => {
    const results = evaluateTest(LATENCY_TEST, https({ steps: [...LOG, step('fmt-a', 30), step('fmt-b', 1200)], wallMs: 3100 }));
    expect(results.map((r) => r.message)).toEqual([
      'latency.total max < 3s: expected max < 3s, got 3.1s (max of 1 execution, client wall-clock)',
      'latency.steps.retriever max < 500ms: 120ms (max of 1 step, server-reported)',
      'latency.steps.llm* max <= 2.5s: 2.5s (max of 1 step, server-reported)',
      'latency.steps.fmt* max < 1s: expected max < 1s, got 1.2s (max of 2 steps, server-reported)',
    ]);
  });

  it('fails a budget no logged step matches, naming what was logged', () => {
    const r = evaluateTest(LATENCY_TEST, https({ steps: [step('retriever', 10), step('llm', 10)] }))[3]!;
    expect(r).toMatchObject({ status: 'fail', message: 'latency.steps.fmt* max < 1s: expected max < 1s, got none: no logged step matches "fmt*" (logged: retriever, llm)' });
  });

  it('fails a step whose latency the service did not report', () => {
    const r = evaluateTest(LATENCY_TEST, https({ steps: [step('retriever', Number.NaN), step('llm'), step('fmt')] }))[1]!;
    expect(r).toMatchObject({ status: 'fail', actual: 'unknown' });
  });

  it('skips per-step latency over WebSocket but checks the total', () => {
    const results = evaluateTest(LATENCY_TEST, ws({ outputs: {}, wallMs: 900 }));
    expect(brief(results)).toEqual([
      'pass latency.total max < 3s',
      'skip latency.steps.retriever max < 500ms',
      'skip latency.steps.llm* max <= 2.5s',
      'skip latency.steps.fmt* max < 1s',
    ]);
    expect(results[1]!.message).toBe('latency.steps.retriever max < 500ms: skipped: per-step latency: the WebSocket transport has no execution logs');
  });
});

describe('executions that did not end well', () => {
  const test = flowTest(`  - name: t
    expect:
      outputs: [{ path: results, exists: true }]
      steps: { count: 1 }
`);

  it('an error fails the execution and leaves everything else unchecked', () => {
    const results = evaluateTest(test, https({ status: 'error', error: 'timed out after 60s', steps: [] }));
    expect(results.map((r) => `${r.kind} ${r.status} ${r.message}`)).toEqual([
      'execution fail timed out after 60s',
      'output skip results exists true: skipped: not checked: timed out after 60s',
      'steps skip steps.count 1: skipped: not checked: timed out after 60s',
    ]);
    expect(results[0]).toMatchObject({ line: test.line, col: test.col });
  });

  it('a failed flow fails the execution and its assertions are still checked', () => {
    const results = evaluateTest(test, https({ status: 'failed', error: 'step "llm" ended with status "error"', steps: [step('llm', 5, 'error')] }));
    expect(brief(results)).toEqual(['fail execution', 'skip results exists true', 'pass steps.count 1']);
  });
});

describe('across repeats', () => {
  const runs = [400, 900, 1500].map((ms) => https({ steps: [step('retriever', 100), step('llm', ms)], wallMs: ms + 200 }));

  it('checks p50/p95/p99 on the pooled samples and leaves max to each repeat', () => {
    const test = flowTest(`  - name: p
    expect:
      latency:
        total: { p50: "< 1.2s", p99: "< 1s", max: "< 9s" }
        steps: { "llm*": { p95: "< 2s" }, retriever: "< 1s" }
`);
    expect(evaluateLatencyAcrossRepeats(test, runs).map((r) => r.message)).toEqual([
      'latency.total p50 < 1.2s: 1.1s (p50 of 3 executions, client wall-clock)',
      'latency.total p99 < 1s: expected p99 < 1s, got 1.7s (p99 of 3 executions, client wall-clock)',
      'latency.steps.llm* p95 < 2s: 1.5s (p95 of 3 steps, server-reported)',
    ]);
  });

  it('leaves out executions that errored, and skips when none finished', () => {
    const test = flowTest('  - name: p\n    expect: { latency: { total: { p50: "< 1s" }, steps: { llm: { p50: "< 1s" } } } }\n');
    const withError = [...runs.slice(0, 1), https({ status: 'error', wallMs: 60_000 })];
    expect(evaluateLatencyAcrossRepeats(test, withError).map((r) => r.status)).toEqual(['pass', 'pass']);
    expect(evaluateLatencyAcrossRepeats(test, [https({ status: 'error' })]).map((r) => r.message)).toEqual([
      'latency.total p50 < 1s: skipped: no execution finished',
      'latency.steps.llm p50 < 1s: skipped: no execution finished',
    ]);
    expect(evaluateLatencyAcrossRepeats(test, [ws({ wallMs: 10 })]).map((r) => r.status)).toEqual(['pass', 'skip']);
  });
});

describe('summariseRepeats', () => {
  const pass = { kind: 'output', label: 'a', status: 'pass', message: 'a', line: 1, col: 1 } as const;
  const fail = { ...pass, status: 'fail', message: 'a: expected x, got y' } as const;
  const skip = { ...pass, status: 'skip', message: 'a: skipped: why' } as const;

  it('passes with at least min_pass passing repeats', () => {
    expect(summariseRepeats([[pass], [fail], [pass]], 2)).toMatchObject({ status: 'pass', passed: 2, repeats: 3, message: '2 of 3 repeats passed' });
    expect(summariseRepeats([[pass], [fail], [fail]], 2)).toMatchObject({ status: 'fail', passed: 1, message: '1 of 3 repeats passed, 2 needed (2 failed)' });
  });

  it('fails on a failing across-repeats budget even when every repeat passed', () => {
    expect(summariseRepeats([[pass], [pass]], 2, [{ ...fail, kind: 'latency', message: 'p95 too slow' }])).toMatchObject({ status: 'fail', message: 'p95 too slow' });
  });

  it('is skipped when nothing could be checked, and passes a smoke test with no assertions', () => {
    expect(summariseRepeats([[skip], [skip]], 2)).toMatchObject({ status: 'skip', message: 'every assertion was skipped: a: skipped: why' });
    expect(summariseRepeats([[skip, pass]], 1).status).toBe('pass');
    expect(summariseRepeats([[], []], 2).status).toBe('pass');
  });
});
