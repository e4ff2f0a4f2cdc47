import { snapshotKey, type AssertionContext, type ExecutionResult } from '../../src/core/flows/index.js';
import { makeRedactor } from '../../src/core/text/redact.js';
import { buildTestResult } from '../../src/report/build.js';
import { buildRunReport } from '../../src/report/run-report.js';
import type { RunReport, TestResult } from '../../src/report/model.js';
import { flowTest, https, step, ws } from '../core/flows/builders.js';

export { flowTest, https, step, ws };

/** A test × transport judged from in-memory executions (`undefined`: a repeat never started). */
export function result(testYaml: string, executions: (ExecutionResult | undefined)[], header = 'flow: summarize\n', context?: AssertionContext): TestResult {
  const test = flowTest(testYaml, header);
  return buildTestResult({ test, transport: executions.find((e) => e)?.transport ?? 'https', executions, ...(context && { context }) });
}

/** A WebSocket test whose snapshot of `results[0]` (stored: `{label: a}`) fails on `{label: b}`; over several lines when `lines`. */
export function snapshotFailure(lines = 1): TestResult {
  const stored = Object.fromEntries(Array.from({ length: lines }, (_, i) => [i === 0 ? 'label' : `line${i}`, 'a']));
  const received = Object.fromEntries(Object.keys(stored).map((k) => [k, 'b']));
  const context: AssertionContext = { snapshots: new Map([[snapshotKey('labels', 'ws', 'results[0]'), { value: stored, source: 'file' }]]) };
  return result('  - name: labels\n    expect:\n      outputs:\n        - { path: "results[0]", snapshot: true }\n', [wsWith({ results: [received] })], 'flow: summarize\n', context);
}

/** A run report holding `results`. */
export function runReport(results: TestResult[], secrets: string[] = []): RunReport {
  return buildRunReport(
    {
      version: '0.0.0-test',
      tenant: { name: 'local', base_url: 'http://127.0.0.1:1' },
      startedAt: new Date('2026-01-02T03:04:05.000Z'),
      finishedAt: new Date('2026-01-02T03:04:06.500Z'),
      durationMs: 1500,
      bailed: false,
      results,
    },
    makeRedactor(secrets),
  );
}

/** A WebSocket execution that ended with these outputs. */
export function wsWith(outputs: unknown, wallMs = 100): ExecutionResult {
  return ws({ outputs, wallMs });
}
