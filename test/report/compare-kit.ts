import type { RunReport, TestResult } from '../../src/report/model.js';
import { https, result, runReport, step } from './builders.js';

/**
 * A synthetic test × transport: `samples` repeats whose step `llm` took `llmMs(i)` (server-reported)
 * and whose wall-clock is that plus 50ms; `failing` makes every repeat's flow fail.
 */
export function timedResult(name: string, samples: number, llmMs: (i: number) => number, opts: { failing?: boolean } = {}): TestResult {
  const executions = Array.from({ length: samples }, (_, i) =>
    https({ wallMs: llmMs(i) + 50, steps: [step('llm', llmMs(i))], ...(opts.failing && { status: 'failed' as const, endedBy: 'failed_step' as const, error: 'step llm failed' }) }),
  );
  return result(`  - { name: ${name}, repeat: ${samples} }\n`, executions);
}

/** Base and head reports: the same tests, head's `llm` step `factor` times slower. */
export function slowerReports(samples: number, factor: number): { base: RunReport; head: RunReport } {
  const ms = (i: number) => 200 + ((i * 7) % 40);
  return {
    base: runReport([timedResult('summarizes', samples, ms)]),
    head: runReport([timedResult('summarizes', samples, (i) => Math.round(ms(i) * factor))]),
  };
}
