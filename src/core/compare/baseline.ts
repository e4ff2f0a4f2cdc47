import type { NameMatcher } from '../text/glob.js';
import { percentile } from '../flows/latency.js';
import type { BudgetKind, FlowTest, LatencyBudget, Transport } from '../flows/types.js';
import { wallSamples, type ComparableReport, type ComparableResult } from './compare.js';

/** A baseline report (`test --baseline FILE`) and the name it was given by. */
export interface Baseline {
  file: string;
  report: ComparableReport;
}

/**
 * `test` with its relative budgets (`"< baseline + 20%"`) made absolute from the same statistic
 * of the same test × transport in `baseline`: the client wall-clock for `total`, the
 * server-reported latency of the matching steps for a step budget. Where the baseline lacks the
 * test or its samples, the budget stays skipped with the reason. Other budgets are left as they are.
 */
export function resolveBaselineBudgets(test: FlowTest, transport: Transport, baseline: Baseline | undefined): FlowTest {
  const latency = test.expect.latency;
  if (!baseline || !latency || ![...latency.total, ...latency.steps].some((b) => b.budget.baseline)) return test;
  const before = baseline.report.results.find((r) => r.id === test.id && r.transport === transport);
  const resolve = <B extends LatencyBudget>(b: B, samples: (r: ComparableResult) => number[], what: string): B => {
    if (!b.budget.baseline) return b;
    const plus = b.budget.baseline.plus;
    if (!before) return { ...b, budget: { ...b.budget, baseline: { plus, skip: `"${test.id}" [${transport}] is not in the baseline ${baseline.file}` } } };
    const value = statistic(samples(before), b.kind);
    if (value === undefined) return { ...b, budget: { ...b.budget, baseline: { plus, skip: `the baseline ${baseline.file} has no ${what} of "${test.id}" [${transport}]` } } };
    return { ...b, budget: { ...b.budget, ms: value * (1 + plus), baseline: { plus, value } } };
  };
  return {
    ...test,
    expect: {
      ...test.expect,
      latency: {
        total: latency.total.map((b) => resolve(b, wallSamples, 'finished execution')),
        steps: latency.steps.map((b) => resolve(b, (r) => matchingSteps(r, b.regex), `logged step matching "${b.pattern}"`)),
      },
    },
  };
}

function matchingSteps(r: ComparableResult, regex: NameMatcher): number[] {
  return r.repeats.flatMap((x) => x.steps.filter((s) => regex.test(s.service) && s.latency_ms !== null).map((s) => s.latency_ms!));
}

function statistic(samples: readonly number[], kind: BudgetKind): number | undefined {
  return percentile(samples, kind === 'max' ? 100 : Number(kind.slice(1)));
}
