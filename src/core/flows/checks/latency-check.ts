import type { ExecutionLogEntry } from '../../model.js';
import { formatMs, withinBudget } from '../duration.js';
import { percentile } from '../latency.js';
import { skipped, verdict } from '../result.js';
import type { AssertionResult, BudgetKind, ExecutionResult, LatencyBudget, StepLatencyBudget } from '../types.js';

export const NO_LOGS_OVER_WS = 'the WebSocket transport has no execution logs';

/**
 * Latency budgets. `max` (also what a plain `"< 4s"` means) is checked on each repeat; p50/p95/p99
 * pool the samples of every repeat: the client wall-clock of each finished execution for `total`,
 * the server-reported latency of every matching logged step for a step budget.
 */
export function latencyResults(
  test: { expect: { latency?: { total: LatencyBudget[]; steps: StepLatencyBudget[] } } },
  executions: readonly ExecutionResult[],
  kinds: readonly BudgetKind[],
): AssertionResult[] {
  const latency = test.expect.latency;
  if (!latency) return [];
  const finished = executions.filter((e) => e.status !== 'error');
  const results: AssertionResult[] = [];
  for (const b of latency.total.filter((b) => kinds.includes(b.kind))) {
    const label = `latency.total ${b.kind} ${b.budget.text}`;
    const ok = finished.filter((e) => e.status === 'ok');
    results.push(
      b.budget.baseline?.skip !== undefined
        ? skipped('latency', label, b.budget.baseline.skip, b)
        : ok.length === 0
          ? skipped('latency', label, 'no execution finished', b)
        : checkBudget(label, b, ok.map((e) => e.wallMs), 'client wall-clock', 'execution'),
    );
  }
  for (const b of latency.steps.filter((b) => kinds.includes(b.kind))) {
    const label = `latency.steps.${b.pattern} ${b.kind} ${b.budget.text}`;
    const logged = finished.filter((e) => e.transport === 'https');
    if (b.budget.baseline?.skip !== undefined) results.push(skipped('latency', label, b.budget.baseline.skip, b));
    else if (finished.length === 0) results.push(skipped('latency', label, 'no execution finished', b));
    else if (logged.length === 0) results.push(skipped('latency', label, `per-step latency: ${NO_LOGS_OVER_WS}`, b));
    else results.push(stepBudget(label, b, logged.flatMap((e) => e.steps ?? [])));
  }
  return results;
}

function stepBudget(label: string, b: StepLatencyBudget, steps: ExecutionLogEntry[]): AssertionResult {
  const matching = steps.filter((s) => b.regex.test(s.service));
  if (matching.length === 0) {
    const services = [...new Set(steps.map((s) => s.service))].join(', ') || 'none';
    return fail(label, b, `no logged step matches "${b.pattern}" (logged: ${services})`, 'none');
  }
  const unknown = matching.filter((s) => !Number.isFinite(s.latencyMs));
  if (unknown.length > 0) {
    return fail(label, b, `the service reported no usable latency for step "${unknown[0]!.service}"`, 'unknown');
  }
  return checkBudget(label, b, matching.map((s) => s.latencyMs), 'server-reported', 'step');
}

function checkBudget(label: string, b: LatencyBudget, samples: number[], source: string, unit: string): AssertionResult {
  const value = percentile(samples, b.kind === 'max' ? 100 : Number(b.kind.slice(1)))!;
  const over = `${samples.length} ${unit}${samples.length === 1 ? '' : 's'}, ${source}`;
  const actual = `${formatMs(value)} (${b.kind} of ${over})`;
  return withBudget(verdict('latency', label, b, { pass: withinBudget(value, b.budget), expected: expectedOf(b), actual }), b);
}

function fail(label: string, b: LatencyBudget, why: string, actual: string): AssertionResult {
  return withBudget(verdict('latency', label, b, { pass: false, expected: expectedOf(b), actual, why }), b);
}

/** The budget as data, for reports that draw it (the HTML waterfall). */
function withBudget(result: AssertionResult, b: LatencyBudget | StepLatencyBudget): AssertionResult {
  result.budget = { ms: b.budget.ms, stat: b.kind, ...('pattern' in b && { step: b.pattern }) };
  return result;
}

function expectedOf(b: LatencyBudget): string {
  const base = b.budget.baseline?.value;
  return `${b.kind} ${b.budget.text}${base === undefined ? '' : ` (${b.budget.op} ${formatMs(b.budget.ms)}: baseline ${formatMs(base)})`}`;
}
