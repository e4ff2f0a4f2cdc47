import { describe, expect, it } from 'vitest';
import { resolveBaselineBudgets } from '../../../src/core/compare/index.js';
import { evaluateLatencyAcrossRepeats, evaluateTest, parseBudget } from '../../../src/core/flows/index.js';
import { flowTest, https, runReport, step } from '../../report/builders.js';
import { timedResult } from '../../report/compare-kit.js';

const RELATIVE = `  - name: summarizes
    repeat: 5
    expect:
      latency:
        total: { p95: "< baseline + 20%" }
        steps: { llm: { p50: "< baseline + 10%" } }
`;

// The baseline's llm step took 200..240ms (p50 220ms), its wall-clock 50ms more.
const baseline = { file: 'main.json', report: runReport([timedResult('summarizes', 5, (i) => 200 + i * 10)]) };
const runs = (llmMs: number) => Array.from({ length: 5 }, () => https({ wallMs: llmMs + 50, steps: [step('llm', llmMs)] }));

describe('relative latency budgets ("< baseline + 20%")', () => {
  it('parse as budgets waiting for a baseline; other forms are refused', () => {
    expect(parseBudget('< baseline + 20%')).toMatchObject({ ok: true, value: { op: '<', text: '< baseline + 20%', baseline: { plus: 0.2 } } });
    expect(parseBudget('<=baseline')).toMatchObject({ ok: true, value: { op: '<=', text: '<= baseline', baseline: { plus: 0 } } });
    expect(parseBudget('< baseline * 2')).toMatchObject({ ok: false, error: 'invalid budget "< baseline * 2": a budget relative to the baseline is "< baseline" or "< baseline + 20%"' });
  });

  it('without a baseline report they are skipped, saying why', () => {
    const results = evaluateLatencyAcrossRepeats(flowTest(RELATIVE), runs(100));
    expect(results.map((r) => [r.status, r.message])).toEqual([
      ['skip', 'latency.total p95 < baseline + 20%: skipped: no baseline report (test --baseline FILE)'],
      ['skip', 'latency.steps.llm p50 < baseline + 10%: skipped: no baseline report (test --baseline FILE)'],
    ]);
  });

  it('are judged against the same statistic of the same test in the baseline', () => {
    const test = resolveBaselineBudgets(flowTest(RELATIVE), 'https', baseline);
    // 230ms: under 290 * 1.2 (wall p95) and 220 * 1.1 = 242ms (llm p50).
    expect(evaluateLatencyAcrossRepeats(test, runs(230)).map((r) => r.status)).toEqual(['pass', 'pass']);
    const slow = evaluateLatencyAcrossRepeats(test, runs(250));
    expect(slow.map((r) => r.status)).toEqual(['pass', 'fail']);
    expect(slow[1]).toMatchObject({ expected: 'p50 < baseline + 10% (< 242ms: baseline 220ms)', actual: '250ms (p50 of 5 steps, server-reported)' });
  });

  it('a plain "< baseline" is checked on every repeat against the baseline\'s slowest', () => {
    const test = resolveBaselineBudgets(flowTest(`  - name: summarizes\n    expect: { latency: { total: "< baseline" } }\n`), 'https', baseline);
    expect(evaluateTest(test, https({ wallMs: 289, steps: [] })).find((r) => r.kind === 'latency')?.status).toBe('pass');
    expect(evaluateTest(test, https({ wallMs: 291, steps: [] })).find((r) => r.kind === 'latency')?.status).toBe('fail');
  });

  it('are skipped with the reason when the baseline lacks the test, the transport or the step', () => {
    const other = resolveBaselineBudgets(flowTest(RELATIVE.replace('summarizes', 'translates')), 'https', baseline);
    expect(evaluateLatencyAcrossRepeats(other, runs(100))[0]!.message).toBe(
      'latency.total p95 < baseline + 20%: skipped: "flows/t.yaml > translates" [https] is not in the baseline main.json',
    );
    const ws = resolveBaselineBudgets(flowTest(RELATIVE), 'ws', baseline);
    expect(evaluateLatencyAcrossRepeats(ws, runs(100))[0]!.message).toContain('"flows/t.yaml > summarizes" [ws] is not in the baseline main.json');
    const noStep = resolveBaselineBudgets(flowTest(RELATIVE.replace('llm:', 'rerank:')), 'https', baseline);
    expect(evaluateLatencyAcrossRepeats(noStep, runs(100))[1]!.message).toBe(
      'latency.steps.rerank p50 < baseline + 10%: skipped: the baseline main.json has no logged step matching "rerank" of "flows/t.yaml > summarizes" [https]',
    );
  });
});
