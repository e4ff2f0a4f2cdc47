import type { ExecutionResult } from '../../src/core/flows/index.js';
import { makeRedactor } from '../../src/core/text/redact.js';
import { buildTestResult } from '../../src/report/build.js';
import { buildRunReport } from '../../src/report/run-report.js';
import type { RunReport, TestResult } from '../../src/report/model.js';
import { flowTest, https, step, ws } from '../core/flows/builders.js';

export { flowTest, https, step, ws };

/** A test × transport judged from in-memory executions (`undefined`: a repeat never started). */
export function result(testYaml: string, executions: (ExecutionResult | undefined)[], header = 'flow: summarize\n'): TestResult {
  const test = flowTest(testYaml, header);
  return buildTestResult({ test, transport: executions.find((e) => e)?.transport ?? 'https', executions });
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
