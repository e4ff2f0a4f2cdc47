import { describe, expect, it } from 'vitest';
import { compareRuns, compareSamples, parseThreshold } from '../../../src/core/compare/index.js';
import { runReport } from '../../report/builders.js';
import { slowerReports, timedResult } from '../../report/compare-kit.js';

describe('compareRuns', () => {
  it('a step 50% slower over 20 samples a side is a regression, with the change in %', () => {
    const { base, head } = slowerReports(20, 1.5);
    const c = compareRuns(base, head, 0.2);
    const llm = c.tests[0]!.steps.find((s) => s.service === 'llm')!;
    expect(llm.verdict).toBe('regression');
    expect(llm.change.p50).toBeCloseTo(0.5, 1);
    expect(llm.p).toBeLessThan(0.001);
    expect(c.tests[0]!.wall.verdict).toBe('regression');
    expect(c).toMatchObject({ regressions: 2, failing: true, newly_failing: [], added: [], removed: [] });
  });

  it('a 5% change is no regression, nor is a 50% change with 2 samples a side', () => {
    const small = slowerReports(20, 1.05);
    const c = compareRuns(small.base, small.head, 0.2);
    expect(c.tests[0]!.steps[0]!.verdict).toBe('unchanged');
    expect(c.failing).toBe(false);
    const few = slowerReports(2, 1.5);
    const f = compareRuns(few.base, few.head, 0.2);
    expect(f.tests[0]!.steps[0]).toMatchObject({ verdict: 'not_enough_samples', p: null });
    expect(f.tests[0]!.wall.verdict).toBe('not_enough_samples');
    expect(f.failing).toBe(false);
  });

  it('a 50% change that the samples do not support is no regression: the threshold alone does not decide', () => {
    // Head's p95 is 50% up because of one slow sample among ten alike.
    const base = [100, 101, 102, 103, 104, 105, 106, 107, 108, 109];
    const head = [100, 101, 102, 103, 104, 105, 106, 107, 108, 160];
    expect(compareSamples(base, head, 0.2)).toMatchObject({ verdict: 'unchanged' });
  });

  it('a significant speed-up is an improvement, never a failure', () => {
    const { base, head } = slowerReports(20, 0.5);
    const c = compareRuns(base, head, 0.2);
    expect(c.tests[0]!.steps[0]!.verdict).toBe('improvement');
    expect(c.failing).toBe(false);
  });

  it('lists newly failing and newly passing tests, and tests added and removed', () => {
    const ms = () => 100;
    const base = runReport([timedResult('breaks', 1, ms), timedResult('heals', 1, ms, { failing: true }), timedResult('goes', 1, ms)]);
    const head = runReport([timedResult('breaks', 1, ms, { failing: true }), timedResult('heals', 1, ms), timedResult('arrives', 1, ms)]);
    const c = compareRuns(base, head, 0.2);
    expect(c.newly_failing.map((t) => t.name)).toEqual(['breaks']);
    expect(c.newly_passing.map((t) => t.name)).toEqual(['heals']);
    expect(c.added.map((t) => t.name)).toEqual(['arrives']);
    expect(c.removed.map((t) => t.name)).toEqual(['goes']);
    expect(c.failing).toBe(true);
    expect(c.regressions).toBe(0);
  });
});

describe('parseThreshold', () => {
  it('reads a percentage', () => {
    expect(parseThreshold('20%')).toEqual({ ok: true, value: 0.2 });
    expect(parseThreshold('7.5')).toEqual({ ok: true, value: 0.075 });
    expect(parseThreshold('fast')).toMatchObject({ ok: false, error: '--threshold fast: give a percentage, such as 20%' });
  });
});
