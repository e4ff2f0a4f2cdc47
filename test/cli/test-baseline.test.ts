import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { suite } from './test-kit.js';

/** The embedded greet flow logs llm at 25ms every time: a baseline of it holds exactly that. */
const RELATIVE = `flow: greet
transport: https
defaults:
  until: { steps: 2 }
tests:
  - name: stays fast
    inputs: { name: Ada }
    repeat: 2
    expect:
      latency:
        steps: { llm: { p50: "<= baseline + 10%" }, retriever: { p95: "< baseline" } }
`;

describe('roleflow test --baseline', () => {
  it('judges relative budgets against the baseline report, and skips them with the reason without one', async () => {
    const s = await suite({ 'flows/relative.yaml': RELATIVE });
    const first = await s.test(['--reporter', 'json=main.json', '--reporter', 'console']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('latency.steps.llm p50 <= baseline + 10%: skipped: no baseline report (test --baseline FILE)');

    const second = await s.test(['--baseline', 'main.json', '--reporter', 'json=head.json']);
    const report = JSON.parse(await s.read('head.json')) as RunReport;
    const across = report.results[0]!.across_repeats;
    // llm: 25ms ≤ 25ms + 10%; retriever: 15ms is not under its baseline 15ms.
    expect(across.map((a) => [a.label, a.status, a.expected])).toEqual([
      ['latency.steps.llm p50 <= baseline + 10%', 'pass', 'p50 <= baseline + 10% (<= 27.5ms: baseline 25ms)'],
      ['latency.steps.retriever p95 < baseline', 'fail', 'p95 < baseline (< 15ms: baseline 15ms)'],
    ]);
    expect(second.code).toBe(3);
  });

  it('names a baseline file that cannot be read, exit 1', async () => {
    const s = await suite({ 'flows/relative.yaml': RELATIVE });
    const r = await s.test(['--baseline', 'nope.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nope\.json.*cannot read the file \(ENOENT\)/);
  });
});
