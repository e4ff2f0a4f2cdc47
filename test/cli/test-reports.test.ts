import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { junitXsdProblems } from '../helpers/junit-xsd.js';
import { findAll, parseXml } from '../report/xml.js';
import { GREET, GREET_FAILING, suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));

/**
 * Passing, failing (assertion), erroring (timeout) and skipped tests, with repeats. The timeout is
 * waiting for a second step that `echo` never logs: its start answers at once, so the deadline
 * lands in polling (a flow that is slow to answer the start would time out there instead under load).
 */
const MIXED = {
  'flows/greet.yaml': GREET,
  'flows/bad.yaml': GREET_FAILING,
  'flows/stuck.yaml': `flow: echo\ntransport: https\ntests:\n  - { name: too slow, timeout: 500ms, until: { steps: 2 } }\n  - { name: not yet, skip: true }\n`,
  'flows/twice.yaml': `flow: greet\ntransport: ws\ntests:\n  - { name: twice, inputs: { name: T }, repeat: 2, until: { node: node-2 } }\n`,
};

describe('roleflow test reporters', () => {
  it('writes well-formed JUnit even when tests fail: a testcase per test × transport × repeat, failures apart from errors', async () => {
    const s = await suite(MIXED);
    const r = await s.test(['--reporter', 'junit', '--reporter', 'console']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('wrote roleflow-junit.xml\n');
    const raw = await s.read('roleflow-junit.xml');
    expect(junitXsdProblems(raw)).toBe('');
    const xml = parseXml(raw);
    expect(xml.name).toBe('testsuites');
    expect(xml.attrs).toMatchObject({ tests: '10', failures: '2', errors: '1', skipped: '1' });
    const cases = findAll(xml, 'testcase');
    expect(cases.map((c) => `${c.attrs['classname']} | ${c.attrs['name']}`)).toEqual([
      'flows/bad.yaml > greet | expects a wrong greeting [https]',
      'flows/bad.yaml > greet | expects a wrong greeting [ws]',
      'flows/greet.yaml > greet | greets Ada [https]',
      'flows/greet.yaml > greet | greets Ada [ws]',
      'flows/greet.yaml > greet | greets Grace [https]',
      'flows/greet.yaml > greet | greets Grace [ws]',
      'flows/stuck.yaml > echo | too slow [https]',
      'flows/stuck.yaml > echo | not yet [https]',
      'flows/twice.yaml > greet | twice [ws] (repeat 1/2)',
      'flows/twice.yaml > greet | twice [ws] (repeat 2/2)',
    ]);
    const failure = findAll(cases[1]!, 'failure')[0]!;
    expect(failure.attrs['message']).toBe('results[0].greeting: expected to equal "Hi Linus", got "Hello Linus"');
    expect(failure.text).toMatch(/^flows\/bad\.yaml:9:11: results\[0\]\.greeting: expected to equal "Hi Linus", got "Hello Linus"\non the tenant: connectionId [\w-]+, messageIds( [\w-]+){3}$/);
    expect(findAll(cases[6]!, 'error')[0]!.attrs['message']).toBe('flow "echo" over HTTPS: timed out after 500ms waiting for 2 steps (1 step logged)');
    expect(findAll(cases[7]!, 'skipped')[0]!.attrs['message']).toBe('skipped');
    expect(findAll(xml, 'testsuite').map((t) => t.attrs['name'])).toEqual(['local: flows/bad.yaml', 'local: flows/greet.yaml', 'local: flows/stuck.yaml', 'local: flows/twice.yaml']);
  });

  it('writes a JSON report that matches its schema, with server step latency and client wall-clock apart', async () => {
    const s = await suite(MIXED);
    const r = await s.test(['--reporter', 'json=out/report.json']);
    expect(r).toMatchObject({ code: 3, stdout: '' });
    const report = JSON.parse(await s.read('out/report.json')) as RunReport;
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
    expect(report.tenant.name).toBe('local');
    expect(report.tenant.base_url).toBe('embedded:.roleflow/local.json'); // the embedded tenant's port changes every run
    expect(report.summary).toEqual({ tests: 9, passed: 5, failed: 3, errored: 1, skipped: 1, not_run: 0, executions: 9 });
    const ada = report.results.find((x) => x.name === 'greets Ada' && x.transport === 'https')!;
    // Latency honesty: exactly what the emulator was told each step takes, not the client's view.
    expect(ada.repeats[0]!.steps.map((st) => [st.service, st.latency_ms])).toEqual([
      ['retriever', 15],
      ['llm', 25],
    ]);
    expect(ada.step_latency_ms['llm']).toEqual({ count: 1, min: 25, p50: 25, p95: 25, max: 25 });
    expect(ada.repeats[0]!.wall_ms).toBeGreaterThanOrEqual(40);
    const ws = report.results.find((x) => x.name === 'twice')!;
    expect(ws.repeats.map((x) => x.messages.map((m) => m.state).join(','))).toEqual(['ack,completed,completed', 'ack,completed,completed']);
    expect(ws.repeats[0]!.outputs).toEqual({ results: [{ greeting: 'Hello T' }] });
    expect(ws.wall_ms!.count).toBe(2);
  });

  it('annotates failures for GitHub at the assertion\'s line and appends a latency summary to $GITHUB_STEP_SUMMARY', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET, 'flows/bad.yaml': GREET_FAILING });
    await s.write('summary.md', '# earlier step\n');
    const r = await s.test(['--reporter', 'github'], { env: { GITHUB_STEP_SUMMARY: `${s.dir}/summary.md` } });
    expect(r.code).toBe(3);
    expect(r.stdout.trim().split('\n').sort()).toEqual([
      '::error file=flows/bad.yaml,line=11,col=23,title=roleflow%3A expects a wrong greeting [https]::latency.steps.llm max < 10ms: expected max < 10ms, got 25ms (max of 1 step, server-reported)',
      '::error file=flows/bad.yaml,line=9,col=11,title=roleflow%3A expects a wrong greeting [ws]::results[0].greeting: expected to equal "Hi Linus", got "Hello Linus"',
    ]);
    const summary = await s.read('summary.md');
    expect(summary.startsWith('# earlier step\n## ❌ roleflow test: 4 passed, 2 failed, 0 skipped (6) in ')).toBe(true);
    expect(summary).toMatch(/\| greet \| https \| 2 \| 1 \| 0 \| \S+ \| \S+ \| \S+ \|/);
    expect(summary).toContain('| greet | llm | 3 | 25ms | 25ms | 25ms |');
    expect(summary).toContain('`flows/bad.yaml:9` results\\[0\\].greeting: expected to equal "Hi Linus", got "Hello Linus"');
  });

  it('names annotated files from $GITHUB_WORKSPACE when the run is in a sub-folder', async () => {
    const s = await suite({ 'flows/bad.yaml': GREET_FAILING });
    const r = await s.test(['--reporter', 'github', '--transport', 'ws'], { env: { GITHUB_WORKSPACE: dirname(s.dir) } });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`::error file=${basename(s.dir)}/flows/bad.yaml,line=9,col=11,`);
  });

  it('merges the JSON reports of shards into one, and renders it again', async () => {
    const s = await suite(MIXED);
    await s.test(['--shard', '1/2', '--reporter', 'json=shard-1/roleflow-report.json']);
    await s.test(['--shard', '2/2', '--reporter', 'json=shard-2/roleflow-report.json']);
    const r = await s.run(['report', 'merge', 'shard-1/roleflow-report.json', 'shard-2/roleflow-report.json', '--out', 'merged.json', '--reporter', 'junit=merged.xml', '--reporter', 'console', '--reporter', 'html=merged.html']);
    expect(r.stderr).toBe('merged 2 reports (9 results); wrote merged.json, merged.xml, merged.html\n');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Tests: 5 passed, 3 failed (1 errored), 1 skipped (9)');
    const merged = JSON.parse(await s.read('merged.json')) as RunReport;
    expect(validReport(merged)).toBe(true);
    expect(merged.shard).toBeUndefined();
    expect(merged.merged_shards).toEqual([{ index: 1, total: 2 }, { index: 2, total: 2 }]);
    expect(merged.results.map((x) => x.file)).toEqual([...merged.results.map((x) => x.file)].sort());
    expect(findAll(parseXml(await s.read('merged.xml')), 'testcase')).toHaveLength(10);
    // The HTML page of the merged run: every result of both shards, the failures listed.
    const html = await s.read('merged.html');
    expect(html.match(/<details class="result"/g)).toHaveLength(9);
    expect(html.match(/<article class="failure"/g)).toHaveLength(3);

    const twice = await s.run(['report', 'merge', 'shard-1/roleflow-report.json', 'shard-1/roleflow-report.json']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^error: ".*" \[\w+\] is in both shard-1\/roleflow-report.json and shard-1\/roleflow-report.json/);
    const lost = await s.run(['report', 'merge', 'shard-1/roleflow-report.json', '--out', 'partial.json']);
    expect(lost).toMatchObject({ code: 1, stdout: '', stderr: 'error: shard 2/2 is missing: give the report of every shard, or --allow-partial to merge without it\n' });
    const partial = await s.run(['report', 'merge', 'shard-1/roleflow-report.json', '--out', 'partial.json', '--allow-partial']);
    expect(partial.stderr).toMatch(/^merged 1 report \(\d+ results\); shard 2\/2 is missing; wrote partial.json\n$/);
    expect(partial.stdout).toContain('Partial: shard 2/2 is missing (merged with --allow-partial)');
    const partialReport = JSON.parse(await s.read('partial.json')) as RunReport;
    expect(validReport(partialReport)).toBe(true);
    expect(partialReport).toMatchObject({ merged_shards: [{ index: 1, total: 2 }], missing_shards: [{ index: 2, total: 2 }] });
    expect((await s.run(['report', 'merge', '--help'])).stdout).toContain('--allow-partial');
    await s.write('junk.json', '{"format_version": 1}');
    const junk = await s.run(['report', 'merge', 'junk.json']);
    expect(junk).toMatchObject({ code: 1, stderr: "error: junk.json: not a roleflow JSON report: must have required property 'tool'\n" });
  });
});
