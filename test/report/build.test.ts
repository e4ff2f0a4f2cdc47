import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/core/text/redact.js';
import { buildTestResult } from '../../src/report/build.js';
import { renderJson } from '../../src/report/json.js';
import { redactReport, redactResult, summarise } from '../../src/report/run-report.js';
import { flowTest, https, result, runReport, step, wsWith } from './builders.js';

const SUMMARY = '  - name: t\n    repeat: 3\n    min_pass: 2\n    expect:\n      outputs:\n        - { path: "results[0].summary", icontains: refund }\n';
const good = () => wsWith({ results: [{ summary: 'Refund' }] });
const bad = () => wsWith({ results: [{ summary: 'Nope' }] });
const timeout = () => ({ ...wsWith(undefined), status: 'error' as const, error: 'flow "summarize" over WebSocket: timed out after 1s' });

describe('judging a test × transport for the reports', () => {
  it('passes when min_pass repeats pass, and keeps every repeat with its own status', () => {
    const r = result(SUMMARY, [good(), bad(), good()]);
    expect(r).toMatchObject({ status: 'pass', passed: 2, repeat: 3, min_pass: 2, message: '2 of 3 repeats passed' });
    expect(r.repeats.map((x) => x.status)).toEqual(['pass', 'fail', 'pass']);
  });

  it('calls a failure that only timeouts or transport errors caused an error, and one with a failed assertion a failure', () => {
    expect(result(SUMMARY, [timeout(), timeout(), good()]).status).toBe('error');
    expect(result(SUMMARY, [timeout(), bad(), good()]).status).toBe('fail');
  });

  it('never passes a test whose repeats --bail left unstarted: not run (not skipped) unless a repeat that ran failed', () => {
    const notRun = result(SUMMARY, [good(), undefined, undefined]);
    expect(notRun).toMatchObject({ status: 'not_run', message: 'not run: --bail stopped the run after a failure (1 of 3 repeats ran)' });
    expect(notRun.repeats.map((x) => x.status)).toEqual(['pass', 'not_run', 'not_run']);
    expect(result(SUMMARY, [bad(), undefined, undefined]).status).toBe('fail');
    const skipped = buildTestResult({ test: flowTest(SUMMARY), transport: 'ws', skip: 'skip: true in the test file', executions: [] });
    expect(summarise([notRun, skipped])).toEqual({ tests: 2, passed: 0, failed: 0, errored: 0, skipped: 1, not_run: 1, executions: 1 });
  });

  it('keeps server-reported step latency and client wall-clock apart', () => {
    const executions = [120, 90, 300].map((ms, i) => https({ steps: [step('retriever', ms), step('llm', 400 + i)], wallMs: 700 + i * 10 }));
    const r = result('  - name: t\n    repeat: 3\n    expect: { steps: { count: 2 } }\n', executions);
    expect(r.step_latency_ms['retriever']).toEqual({ count: 3, min: 90, p50: 120, p95: 300, max: 300 });
    expect(r.step_latency_ms['llm']!.p50).toBe(401);
    expect(r.wall_ms).toEqual({ count: 3, min: 700, p50: 710, p95: 720, max: 720 });
    expect(r.repeats[2]!.steps[0]).toEqual({ count: 1, service: 'retriever', status: 'completed', latency_ms: 300, service_type: 'ai_services' });
  });

  it('counts results, errors among the failures', () => {
    const results = [result(SUMMARY, [good(), good(), good()]), result(SUMMARY, [timeout(), timeout(), timeout()]), result(SUMMARY, [bad(), bad(), good()])];
    expect(summarise(results)).toEqual({ tests: 3, passed: 1, failed: 2, errored: 1, skipped: 0, not_run: 0, executions: 9 });
  });

  it('redacts secrets from every value of a result, and from the keys of the tenant\'s data, in their escaped forms too', () => {
    const outputs = { results: [{ 'key-s3cr"et': 'a s3cr"et here', deep: 'x"s3cr\\"et' }] };
    const r = redactResult(result(SUMMARY, [wsWith(outputs)]), makeRedactor(['s3cr"et']));
    expect(r.repeats[0]!.outputs).toEqual({ results: [{ 'key-***': 'a *** here', deep: 'x"***' }] });
    const steps = redactResult(result('  - name: t\n', [https({ steps: [step('s3cr"et-step', 5)] })]), makeRedactor(['s3cr"et']));
    expect(Object.keys(steps.step_latency_ms)).toEqual(['***-step']);
    expect(steps.repeats[0]!.steps[0]!.service).toBe('***-step');
  });

  it('writes a report holding no secret as it is (its JSON checked, nothing copied), and masks one holding a secret before any reporter sees it', () => {
    const secret = 'tok-3n"\\é';
    const clean = result(SUMMARY, [good(), bad(), good()]);
    const report = runReport([clean], [secret]);
    // Nothing to mask: the result is the one judged, and the JSON the check read is what is written.
    expect(report.results[0]).toBe(clean);
    expect(redactResult(clean, makeRedactor([secret]))).toBe(clean);
    expect(renderJson(report)).toBe(renderJson(redactReport(report, makeRedactor([secret]))));
    const leaking = result(SUMMARY, [wsWith({ results: [{ summary: `refund ${secret}`, [secret]: 1 }] })]);
    const masked = runReport([leaking], [secret]);
    expect(masked.results[0]).not.toBe(leaking);
    const json = renderJson(masked);
    expect(json).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(masked.results[0]!.repeats[0]!.outputs).toEqual({ results: [{ summary: 'refund ***', '***': 1 }] });
    // The secret was read in the text, so the JSON written is made from the masked report.
    expect(JSON.parse(json).results[0].repeats[0].outputs).toEqual({ results: [{ summary: 'refund ***', '***': 1 }] });
  });

  it('never masks the report\'s own keys, whatever word a secret is', () => {
    const r = result(SUMMARY, [good(), bad(), good()]);
    const report = runReport([r], ['summary', 'tests', 'status', 'results']);
    expect(Object.keys(report)).toEqual(['format_version', 'tool', 'tenant', 'started_at', 'finished_at', 'duration_ms', 'bailed', 'interrupted', 'summary', 'results']);
    expect(report.summary).toEqual({ tests: 1, passed: 1, failed: 0, errored: 0, skipped: 0, not_run: 0, executions: 3 });
    expect(report.results[0]!.status).toBe('pass');
    // A flow's outputs are its data, not the report's structure: a secret is hidden in their keys too.
    expect(report.results[0]!.repeats[1]!.outputs).toEqual({ '***': [{ '***': 'Nope' }] });
    expect(report.results[0]!.repeats[1]!.assertions[0]!.message).toBe('***[0].***: expected to contain "refund" (ignoring case), got "Nope"');
  });
});
