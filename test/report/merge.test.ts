import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../src/report/json.js';
import type { RunReport } from '../../src/report/model.js';
import { https, result, runReport, step, wsWith } from './builders.js';

const passing = (name: string) => result(`  - name: ${name}\n`, [wsWith({ results: [] })]);
const failing = (name: string) => result(`  - name: ${name}\n    expect:\n      outputs:\n        - { path: results, length: { gte: 1 } }\n`, [wsWith({ results: [] })]);
const erroring = (name: string) => result(`  - name: ${name}\n`, [https({ status: 'error', endedBy: 'timeout', error: 'timed out', wallMs: 60_000 })]);
const at = (report: RunReport, started: string): RunReport => ({ ...report, started_at: started, finished_at: started });

describe('report merge --prefer-last: a run, then a rerun of what failed', () => {
  const first = at(runReport([passing('a'), failing('b'), erroring('c')]), '2026-01-01T00:00:00.000Z');
  const rerun = at(runReport([passing('b')]), '2026-01-01T01:00:00.000Z');

  it('shows each test once, the rerun\'s result replacing the first\'s, both in its history', () => {
    const merged = mergeReports([{ file: 'first.json', report: first }, { file: 'rerun.json', report: rerun }], { preferLast: true });
    if (!merged.ok) throw new Error(merged.error);
    const { results, summary } = merged.value;
    // (Every test of these builders is on line 3: HTTPS sorts first, then the order read.)
    expect(results.map((r) => [r.name, r.transport, r.status])).toEqual([
      ['c', 'https', 'error'],
      ['a', 'ws', 'pass'],
      ['b', 'ws', 'pass'],
    ]);
    expect(results[2]!.history).toEqual([
      { report: 'first.json', started_at: '2026-01-01T00:00:00.000Z', status: 'fail', message: expect.any(String), passed: 0, repeat: 1 },
      { report: 'rerun.json', started_at: '2026-01-01T01:00:00.000Z', status: 'pass', message: '1 of 1 repeat passed', passed: 1, repeat: 1 },
    ]);
    expect(results[1]!.history).toBeUndefined();
    expect(summary).toMatchObject({ tests: 3, passed: 2, failed: 1, errored: 1 });
    // A second rerun adds to the history the merge already holds.
    const again = mergeReports([{ file: 'merged.json', report: merged.value }, { file: 'rerun2.json', report: at(runReport([failing('b')]), '2026-01-01T02:00:00.000Z') }], { preferLast: true });
    expect(again.ok && again.value.results[2]!.history?.map((h) => [h.report, h.status])).toEqual([
      ['first.json', 'fail'],
      ['rerun.json', 'pass'],
      ['rerun2.json', 'fail'],
    ]);
  });

  it('still refuses a test twice in one report, and names --prefer-last for two', () => {
    const twice = runReport([passing('a'), passing('a')]);
    expect(mergeReports([{ file: 'x.json', report: twice }], { preferLast: true })).toEqual({ ok: false, error: '"flows/t.yaml > a" [ws] is twice in x.json' });
    expect(mergeReports([{ file: 'first.json', report: first }, { file: 'rerun.json', report: rerun }])).toMatchObject({ ok: false, error: expect.stringContaining('--prefer-last') });
  });

  it('takes the shards as the run and a whole-run rerun beside them', () => {
    const shard = (index: number, r: RunReport) => ({ ...r, shard: { index, total: 2 } });
    const merged = mergeReports(
      [
        { file: 's1.json', report: shard(1, runReport([failing('b')])) },
        { file: 's2.json', report: shard(2, runReport([passing('a')])) },
        { file: 'rerun.json', report: { ...rerun, selection: { flows_dir: 'flows', paths: [], rerun: { from: 'merged.json' } } } },
      ],
      { preferLast: true },
    );
    expect(merged.ok && merged.value.merged_shards).toHaveLength(2);
    expect(merged.ok && merged.value.summary).toMatchObject({ passed: 2, failed: 0 });
  });
});

describe('report merge of shards of different plans', () => {
  it('refuses shards whose plan digests differ, and keeps the plan of shards that agree', () => {
    const plan = (c: string) => ({ digest: `sha256:${c.repeat(64)}`, by: 'timings' as const });
    const shard = (index: number, name: string, digest: string) => ({ ...runReport([passing(name)]), shard: { index, total: 2 }, shard_plan: plan(digest) });
    expect(mergeReports([{ file: 'a.json', report: shard(1, 'a', 'a') }, { file: 'b.json', report: shard(2, 'b', 'b') }])).toMatchObject({
      ok: false,
      error: expect.stringContaining('b.json and a.json are shards of different plans'),
    });
    const merged = mergeReports([{ file: 'a.json', report: shard(1, 'a', 'a') }, { file: 'b.json', report: shard(2, 'b', 'a') }]);
    expect(merged.ok && merged.value.shard_plan).toEqual(plan('a'));
  });
});

describe('suite-wide figures of a merge', () => {
  it('computes step percentiles from every execution of every shard, not from the shards\' statistics', () => {
    // Shard 1: one execution whose llm step took 100ms; shard 2: nine at 1000ms. Averaging the
    // shards' p50s would give 550ms; the executions' p50 is 1000ms.
    const steps = (ms: number) => https({ steps: [step('llm', ms)], wallMs: ms });
    const one = { ...runReport([result('  - name: fast\n', [steps(100)])]), shard: { index: 1, total: 2 } };
    const nine = { ...runReport([result('  - name: slow\n    repeat: 9\n', Array.from({ length: 9 }, () => steps(1000)))]), shard: { index: 2, total: 2 } };
    const merged = mergeReports([{ file: 'a.json', report: one }, { file: 'b.json', report: nine }]);
    if (!merged.ok) throw new Error(merged.error);
    expect(merged.value.latency).toEqual([
      expect.objectContaining({ flow: 'summarize', transport: 'https', pass: 2, step_latency_ms: { llm: { count: 10, min: 100, p50: 1000, p95: 1000, max: 1000 } } }),
    ]);
  });

  it('judges the pass rate again over the merged results, with the shards\' min_pass_rate or the one given', () => {
    const gate = { min_pass_rate: 50, pass_rate: 100, passed: true };
    const shard = (index: number, r: RunReport) => ({ ...r, shard: { index, total: 2 }, gate });
    const inputs = [
      { file: 'a.json', report: shard(1, runReport([passing('a')])) },
      { file: 'b.json', report: shard(2, runReport([failing('b'), failing('c')])) },
    ];
    expect(mergeReports(inputs)).toMatchObject({ ok: true, value: { gate: { min_pass_rate: 50, pass_rate: 33.33, passed: false } } });
    expect(mergeReports(inputs, { minPassRate: 30 })).toMatchObject({ ok: true, value: { gate: { min_pass_rate: 30, passed: true } } });
  });
});
