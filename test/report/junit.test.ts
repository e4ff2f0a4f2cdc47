import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import { findAll, parseXml } from './xml.js';
import { junitXsdProblems } from '../helpers/junit-xsd.js';
import { https, result, runReport, snapshotFailure, step, ws, wsWith } from './builders.js';

describe('JUnit reporter', () => {
  it('escapes markup and quotes, and shows characters XML cannot hold as escapes, in names, attributes and text', () => {
    const nasty = 'A <b>&"quoted"\' \u0000\u0007\uFFFE\uD800 name';
    const r = result(
      `  - name: ${JSON.stringify(nasty)}\n    expect:\n      outputs:\n        - { path: "results[0].text", equals: "x" }\n`,
      [wsWith({ results: [{ text: '</failure><evil attr="1">&amp;\u001b[31m' }] })],
    );
    const xml = renderJunit(runReport([r]));
    const tree = parseXml(xml);
    const testcase = findAll(tree, 'testcase')[0]!;
    expect(testcase.attrs['name']).toBe('A <b>&"quoted"\' \\u0000\\u0007\\ufffe\\ud800 name [ws]');
    const failure = findAll(testcase, 'failure')[0]!;
    expect(failure.attrs['message']).toBe('results[0].text: expected to equal "x", got "</failure><evil attr=\\"1\\">&amp;\\u001b[31m"');
    expect(failure.text).toContain('flows/t.yaml:6:11: results[0].text');
  });

  it('passes a repeat that failed within min_pass, noting it, and fails the last repeat for a budget across repeats', () => {
    const test = '  - name: t\n    repeat: 3\n    min_pass: 2\n    expect:\n      steps: { count: 1 }\n      latency: { total: { p95: "< 500ms" } }\n';
    const run = (wallMs: number, steps = 1) => https({ steps: Array.from({ length: steps }, () => step('s')), wallMs });
    const tolerated = renderJunit(runReport([result(test, [run(100), run(100, 2), run(100)])]));
    const cases = findAll(parseXml(tolerated), 'testcase');
    expect(cases.map((c) => c.children.map((x) => x.name).join(','))).toEqual(['system-out', 'system-out', 'system-out']);
    expect(cases[1]!.children[0]!.text).toBe('ended_by: until\nthis repeat failed, within min_pass 2 of 3: steps.count 1: expected 1 steps, got 2 steps (s → s)');

    const slow = findAll(parseXml(renderJunit(runReport([result(test, [run(100), run(100), run(900)])]))), 'testcase');
    expect(slow.map((c) => c.children.map((x) => x.name).join(','))).toEqual(['system-out', 'system-out', 'failure,system-out']);
    expect(slow[2]!.children[0]!.attrs['message']).toBe('latency.total p95 < 500ms: expected p95 < 500ms, got 900ms (p95 of 3 executions, client wall-clock)');
  });

  it('reports repeats that never ran as skipped, with the reason', () => {
    const test = '  - name: t\n    repeat: 2\n    expect: { steps: { count: 1 } }\n';
    const xml = parseXml(renderJunit(runReport([result(test, [https({ steps: [] }), undefined])])));
    const [first, second] = findAll(xml, 'testcase');
    expect(first!.children[0]!.name).toBe('failure');
    expect(second!.children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'not run: --bail stopped the run after a failure' } });
    expect(xml.attrs).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '1' });
  });

  it('is valid against the Jenkins junit-10 XSD, with how each execution ended and its ids on the tenant in system-out', () => {
    const ids = { flowId: 'f-1', executionId: 'e-1' };
    const test = '  - name: t\n    repeat: 3\n    expect:\n      steps: { count: 1 }\n';
    const results = [
      result(test, [https({ steps: [step('s')], ids }), https({ steps: [step('s')], endedBy: 'quiet' }), undefined]),
      result('  - name: u\n    expect: { steps: { count: 2 } }\n', [https({ steps: [step('s')], ids })]),
      result('  - name: v\n    expect: { steps: { count: 1 } }\n', [https({ status: 'error', endedBy: 'timeout', error: 'timed out' })]),
      snapshotFailure(),
      result('  - name: x\n    expect:\n      outputs:\n        - { path: results, exists: true }\n', [ws({ outputs: { results: [] }, ids: { connectionId: 'c-1', messageIds: ['m-1', 'm-2'] } })]),
    ];
    const xml = renderJunit(runReport(results));
    expect(junitXsdProblems(xml)).toBe('');
    expect(xml).not.toMatch(/<testcase[^>]*>\s*<properties>/);
    const cases = findAll(parseXml(xml), 'testcase');
    const out = (i: number) => findAll(cases[i]!, 'system-out')[0]?.text;
    expect(out(0)).toBe('ended_by: until\non the tenant: executionId e-1, flowId f-1');
    expect(out(1)).toBe('ended_by: quiet');
    expect(out(2)).toBeUndefined();
    expect(findAll(cases[2]!, 'skipped')[0]!.attrs['message']).toBe('not run: --bail stopped the run after a failure');
    expect(out(3)).toBe('ended_by: until\non the tenant: executionId e-1, flowId f-1');
    expect(out(4)).toBe('ended_by: timeout');
    expect(out(6)).toBe('ended_by: until\non the tenant: connectionId c-1, messageIds m-1 m-2');
    expect(findAll(parseXml(xml), 'testsuite').map((t) => t.attrs['name'])).toEqual(['local: flows/t.yaml']);
    // What the XSD refuses is found: a property inside a testcase.
    expect(junitXsdProblems(xml.replace('<system-out>', '<properties><property name="a" value="b"/></properties><system-out>'))).toMatch(/properties.*not expected/);
  });
});
