import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/core/flows/index.js';
import { redactDeep, summarise } from '../../src/report/build.js';
import { https, result, step, wsWith } from './builders.js';

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

  it('never passes a test whose repeats --bail left unstarted: skipped unless a repeat that ran failed', () => {
    const skipped = result(SUMMARY, [good(), undefined, undefined]);
    expect(skipped).toMatchObject({ status: 'skip', message: 'not run: --bail stopped the run after a failure (1 of 3 repeats ran)' });
    expect(skipped.repeats.map((x) => x.status)).toEqual(['pass', 'not_run', 'not_run']);
    expect(result(SUMMARY, [bad(), undefined, undefined]).status).toBe('fail');
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
    expect(summarise(results)).toEqual({ tests: 3, passed: 1, failed: 2, errored: 1, skipped: 0, executions: 9 });
  });

  it('redacts secrets from every string, keys included, in their JSON-escaped form too', () => {
    const value = { 'key-s3cr"et': ['a s3cr"et here', { n: 1, deep: 'x"s3cr\\"et' }] };
    expect(redactDeep(value, makeRedactor(['s3cr"et']))).toEqual({ 'key-***': ['a *** here', { n: 1, deep: 'x"***' }] });
  });

  it('keeps everything around a redacted value, in order', () => {
    const value = { before: 'clean', list: ['a', 'tok3n', 'b'], after: { n: 2, tok3n: null } };
    const redacted = redactDeep(value, makeRedactor(['tok3n']));
    expect(redacted).toEqual({ before: 'clean', list: ['a', '***', 'b'], after: { n: 2, '***': null } });
    expect(Object.keys(redacted.after)).toEqual(['n', '***']);
    expect(value.list[1]).toBe('tok3n');
  });
});
