import { describe, expect, it } from 'vitest';
import { progressLine, renderConsole, renderSummary, renderTestResult } from '../../src/report/console.js';
import { renderAnnotations, renderStepSummary } from '../../src/report/github.js';
import { mergeReports, mergeWarnings } from '../../src/report/json.js';
import { parseReporters } from '../../src/report/reporters.js';
import type { RunReport } from '../../src/report/model.js';
import { https, result, runReport, snapshotFailure, step, ws, wsWith } from './builders.js';

const OUTPUT_TEST = '  - name: t\n    repeat: 3\n    expect:\n      outputs:\n        - { path: "results[0].summary", icontains: refund }\n';
const summary = (text: string) => wsWith({ results: [{ summary: text }] });

describe('GitHub reporter', () => {
  it('annotates each failed assertion once, at its line and column, escaping %, CR, LF, and : , in properties', () => {
    const r = result(
      '  - name: "50%: a, b"\n    expect:\n      outputs:\n        - { path: "results[0].summary", icontains: refund }\n',
      [summary('100%\r\nlines')],
      'flow: summarize\n',
    );
    expect(renderAnnotations(runReport([r]))).toBe(
      '::error file=flows/t.yaml,line=6,col=11,title=roleflow%3A 50%25%3A a%2C b [ws]::results[0].summary: expected to contain "refund" (ignoring case), got "100%25\\r\\nlines"\n',
    );
    const raw = result('  - name: t\n    expect:\n      outputs:\n        - { path: "results[0]", exists: false }\n', [wsWith({ results: ['a\nb%'] })]);
    expect(renderAnnotations(runReport([raw]))).toContain('got "a\\nb%25"');
    expect(renderAnnotations(runReport([result(OUTPUT_TEST, [summary('refund'), summary('refund'), summary('refund')])]))).toBe('');
  });

  it('groups an assertion failing in several repeats into one annotation with a count', () => {
    const r = result(OUTPUT_TEST, [summary('no'), summary('refund'), summary('nope')]);
    const lines = renderAnnotations(runReport([r])).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/got "no" \(2 of 3 repeats\)$/);
  });

  it('writes a step summary with client and server latency tables and the failures, escaped for markdown', () => {
    const steps = (ms: number) => https({ steps: [step('retriever', ms), step('llm|big', 400)], wallMs: 600 + ms });
    const r = result('  - name: "pipes | and *stars*"\n    repeat: 2\n    expect: { steps: { count: 3 } }\n', [steps(100), steps(120)]);
    const md = renderStepSummary(runReport([r]));
    expect(md).toContain('## ❌ roleflow test: 0 passed, 1 failed, 0 skipped (1) in 1.5s');
    expect(md).toContain('| summarize | https | 0 | 1 | 0 | 700ms | 720ms | 720ms |');
    expect(md).toContain('| summarize | retriever | 2 | 100ms | 120ms | 120ms |');
    expect(md).toContain('| summarize | llm\\|big | 2 | 400ms | 400ms | 400ms |');
    expect(md).toContain('- **flows/t.yaml \\> pipes \\| and \\*stars\\*** [https]: 0 of 2 repeats passed, 2 needed (2 failed)');
  });

  it('counts what --bail left unstarted as not run, apart from the skipped', () => {
    const test = '  - name: t\n    repeat: 2\n    expect: { steps: { count: 1 } }\n';
    const md = renderStepSummary(runReport([result(test, [https({ steps: [step('a')], wallMs: 200 }), undefined])]));
    expect(md).toContain('## ✅ roleflow test: 0 passed, 0 failed, 0 skipped, 1 not run (1) in 1.5s');
    expect(md).toContain('| flow | transport | pass | fail | skip | not run | p50 | p95 | max |');
    expect(md).toContain('| summarize | https | 0 | 0 | 0 | 1 | 200ms | 200ms | 200ms |');
    expect(md).toContain('| ⏹️ | flows/t.yaml \\> t | https | 1/2 | 200ms |');
  });
});

describe('what a glance at a report could miss', () => {
  const acrossFailed = result('  - name: t\n    repeat: 3\n    expect:\n      latency: { total: { p50: "< 50ms" } }\n', [https({ wallMs: 100 }), https({ wallMs: 120 }), https({ wallMs: 90 })]);
  const quiet = result('  - name: q\n    expect:\n      outputs:\n        - { path: results, exists: true }\n', [ws({ endedBy: 'quiet', outputs: { results: [] } })]);

  it('a failed test whose every repeat passed (a budget across them failed) never reads 3/3', () => {
    expect(acrossFailed).toMatchObject({ status: 'fail', passed: 3, repeat: 3 });
    const line = renderTestResult(acrossFailed, { color: false }).split('\n')[0]!;
    expect(line).toBe('✗ flows/t.yaml > t [https] failed across repeats p50 100ms');
    const md = renderStepSummary(runReport([acrossFailed]));
    expect(md).toContain('| ❌ | flows/t.yaml \\> t | https | failed across repeats | 100ms |');
    expect(md).not.toContain('3/3');
  });

  it('the step summary shows snapshot diffs with real lines, and the tests that ended by quiet', () => {
    const md = renderStepSummary(runReport([snapshotFailure(), quiet]));
    expect(md).toContain('### Snapshot diffs\n\n**flows/t.yaml \\> labels** [ws] `flows/t.yaml:6`\n\n```diff\n--- snapshot\n+++ received\n@@ -1,1 +1,1 @@\n-label: a\n+label: b\n```\n');
    expect(md).toContain('### Ended by quiet');
    expect(md).toContain('- **flows/t.yaml \\> q** [ws]: ended by quiet, no until reached');
    expect(quiet.status).toBe('pass');
    expect(renderTestResult(quiet, { color: false })).toContain('(ended by quiet, no until reached)');
  });
});

describe('console reporter', () => {
  it('shows one line per test and each failure once with its repeat count and place, in colour only when asked', () => {
    const r = result(OUTPUT_TEST, [summary('no'), summary('refund'), summary('no')]);
    const plain = renderTestResult(r, { color: false });
    expect(plain.split('\n')).toEqual([
      '✗ flows/t.yaml > t [ws] 1/3 p50 100ms',
      '    ✗ results[0].summary: expected to contain "refund" (ignoring case), got "no" (2 of 3 repeats) (flows/t.yaml:7:11)',
      '    1 of 3 repeats passed, 3 needed (2 failed)',
    ]);
    expect(plain).not.toMatch(/\x1b\[/);
    expect(renderTestResult(r, { color: true })).toContain('\x1b[31m✗\x1b[0m');
  });

  it('lists skipped assertions with their reason, and ends with the summary table and totals', () => {
    const r = result('  - name: t\n    expect:\n      steps: { count: 1 }\n      outputs:\n        - { path: results, exists: true }\n', [https({ steps: [step('a')], wallMs: 250 })]);
    const text = renderConsole(runReport([r]), { color: false });
    expect(text).toBe(
      [
        '✓ flows/t.yaml > t [https] 1/1 250ms',
        '    - results exists true: skipped: the HTTPS execution logs carry no outputs (flows/t.yaml:7:11)',
        '',
        'flow       transport  pass  fail  skip    p50    p95',
        'summarize  https         1     0     0  250ms  250ms',
        '',
        'Tests: 1 passed, 0 failed, 0 skipped (1) in 1.5s; 1 assertion skipped',
        '',
      ].join('\n'),
    );
    // --quiet: no line per skipped assertion; the totals still count it.
    const quiet = renderConsole(runReport([r]), { color: false, quiet: true });
    expect(quiet).not.toContain('results exists true: skipped');
    expect(quiet).toContain('Tests: 1 passed, 0 failed, 0 skipped (1) in 1.5s; 1 assertion skipped');
  });

  it('keeps the progress line within the terminal width', () => {
    expect(progressLine(3, 40, 'flows/a.yaml > b [ws]')).toBe('running 3/40 · flows/a.yaml > b [ws]');
    const long = progressLine(3, 40, 'x'.repeat(200), 40);
    expect(long).toHaveLength(39);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('reporter options', () => {
  it('defaults to console, takes NAME=FILE, and --json as json on stdout', () => {
    expect(parseReporters([], false)).toEqual({ ok: true, value: [{ name: 'console' }] });
    expect(parseReporters(['junit=out/j.xml', 'github'], false)).toEqual({ ok: true, value: [{ name: 'junit', file: 'out/j.xml' }, { name: 'github' }] });
    expect(parseReporters([], true)).toEqual({ ok: true, value: [{ name: 'json', file: '-' }] });
  });

  it('refuses unknown names, empty files and a machine-readable report sharing stdout', () => {
    expect(parseReporters(['tap'], false)).toMatchObject({ ok: false, error: expect.stringContaining('unknown reporter "tap"') });
    expect(parseReporters(['json='], false)).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    expect(parseReporters(['junit=-', 'github'], false)).toMatchObject({ ok: false, error: expect.stringContaining('junit on stdout cannot share it with github') });
  });
});

describe('merging shard reports', () => {
  const shard = (index: number, names: string[]) => ({
    ...runReport(names.map((n) => result(`  - name: ${n}\n`, [wsWith({ results: [] })]))),
    shard: { index, total: 2 },
  });

  it('combines results in file order, recounts, and spans the earliest start to the latest finish', () => {
    const a = { ...shard(1, ['b']), started_at: '2026-01-02T03:04:05.000Z', finished_at: '2026-01-02T03:04:09.000Z' };
    const b = { ...shard(2, ['a']), started_at: '2026-01-02T03:04:04.000Z', finished_at: '2026-01-02T03:04:06.000Z' };
    const merged = mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: b }]);
    if (!merged.ok) throw new Error(merged.error);
    expect(merged.value.results.map((r) => r.name)).toEqual(['b', 'a']);
    expect(merged.value).toMatchObject({ started_at: '2026-01-02T03:04:04.000Z', finished_at: '2026-01-02T03:04:09.000Z', duration_ms: 5000 });
    expect(merged.value.summary).toMatchObject({ tests: 2, passed: 2 });
    expect(merged.value.merged_shards).toEqual([{ index: 1, total: 2 }, { index: 2, total: 2 }]);
  });

  it('refuses a result found in two reports, and reports from two tenants', () => {
    const a = shard(1, ['same']);
    expect(mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: a }])).toEqual({
      ok: false,
      error: '"flows/t.yaml > same" [ws] is in both a.json and b.json: were two reports of the same shard given? (a rerun: --prefer-last)',
    });
    const other = { ...shard(2, ['x']), tenant: { name: 'staging', base_url: 'https://s.example' } };
    expect(mergeReports([{ file: 'a.json', report: a }, { file: 'c.json', report: other }])).toMatchObject({ ok: false, error: expect.stringContaining('tenant staging') });
  });

  it('refuses an incomplete set of shards, naming what is missing, unless asked to merge a partial run', () => {
    const three = (index: number, names: string[]) => ({ ...shard(index, names), shard: { index, total: 3 } });
    const given = [{ file: 'a.json', report: three(1, ['a']) }, { file: 'b.json', report: three(2, ['b']) }];
    expect(mergeReports(given)).toEqual({ ok: false, error: 'shard 3/3 is missing: give the report of every shard, or --allow-partial to merge without it' });
    expect(mergeReports(given.slice(0, 1))).toMatchObject({ ok: false, error: expect.stringMatching(/^shards 2\/3 and 3\/3 are missing: /) });
    const partial = mergeReports(given, { allowPartial: true });
    if (!partial.ok) throw new Error(partial.error);
    expect(partial.value).toMatchObject({ merged_shards: [{ index: 1, total: 3 }, { index: 2, total: 3 }], missing_shards: [{ index: 3, total: 3 }] });
    expect(renderSummary(partial.value, { color: false })).toContain('\nPartial: shard 3/3 is missing (merged with --allow-partial)');
    // The partial merge and the late shard make the whole run.
    const whole = mergeReports([{ file: 'partial.json', report: partial.value }, { file: 'c.json', report: three(3, ['c']) }]);
    if (!whole.ok) throw new Error(whole.error);
    expect(whole.value.missing_shards).toBeUndefined();
    expect(whole.value.merged_shards).toHaveLength(3);
  });

  it('keeps the commit when every shard tested the same one, and records none when they differ or one lacks it', () => {
    const at = (index: number, commit?: string) => ({ ...shard(index, [`t${index}`]), ...(commit && { commit }) });
    const merge = (a: ReturnType<typeof at>, b: ReturnType<typeof at>) => {
      const merged = mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: b }]);
      if (!merged.ok) throw new Error(merged.error);
      return merged.value;
    };
    const same = merge(at(1, 'abc1234'), at(2, 'abc1234'));
    expect(same.commit).toBe('abc1234');
    expect(Object.keys(same).slice(0, 4)).toEqual(['format_version', 'tool', 'tenant', 'commit']);
    expect(merge(at(1, 'abc1234'), at(2, 'def5678')).commit).toBeUndefined();
    expect(merge(at(1, 'abc1234'), at(2)).commit).toBeUndefined();
  });

  it('keeps the Roles digest only when every shard saw the same Roles, and the work tree dirty when any shard\'s was, with a warning for what it drops', () => {
    const digest = (c: string) => `sha256:${c.repeat(64)}`;
    const at = (index: number, over: Partial<RunReport>) => ({ ...shard(index, [`t${index}`]), ...over });
    const merge = (a: RunReport, b: RunReport) => {
      const inputs = [{ file: 'a.json', report: a }, { file: 'b.json', report: b }];
      const merged = mergeReports(inputs);
      if (!merged.ok) throw new Error(merged.error);
      return { report: merged.value, warnings: mergeWarnings(inputs) };
    };
    const roles = { start: digest('a'), end: digest('a') };
    const clean = { state: 'clean' as const };
    const same = merge(at(1, { roles_digest: roles, work_tree: clean }), at(2, { roles_digest: roles, work_tree: clean }));
    expect([same.report.roles_digest, same.report.work_tree, same.warnings]).toEqual([roles, clean, []]);
    // A shard that started after the Roles changed: no one set of Roles, and promote refuses the merge.
    const changed = merge(at(1, { roles_digest: roles, work_tree: clean }), at(2, { roles_digest: { start: digest('b'), end: digest('b') }, work_tree: clean }));
    expect(changed.report.roles_digest).toBeUndefined();
    expect(changed.warnings).toEqual(['warning: the runs saw different Roles on the tenant (or some record none): the merged report records no Roles digest, and roleflow promote refuses it']);
    const dirty = merge(at(1, { roles_digest: roles, work_tree: { state: 'dirty', changed: ['flows/b.yaml'] } }), at(2, { roles_digest: roles, work_tree: { state: 'dirty', changed: ['flows/a.yaml'] } }));
    expect(dirty.report.work_tree).toEqual({ state: 'dirty', changed: ['flows/a.yaml', 'flows/b.yaml'] });
    expect(merge(at(1, { work_tree: clean }), at(2, { work_tree: { state: 'unknown' } })).report.work_tree).toEqual({ state: 'unknown' });
    const lacking = merge(at(1, { work_tree: clean }), at(2, {}));
    expect(lacking.report.work_tree).toBeUndefined();
    expect(lacking.warnings).toContain('warning: some reports do not record their work tree: the merged report records none, and roleflow promote refuses it');
    expect(merge(at(1, { commit: 'abc1234' }), at(2, { commit: 'def5678' })).warnings).toContain(
      'warning: the reports are of different commits (or some record none): the merged report records no commit, and roleflow promote refuses it',
    );
  });

  it('refuses shards of different runs: other totals, a shard given twice, a whole run among shards', () => {
    const empty = (index: number, total: number) => ({ ...shard(index, []), shard: { index, total } });
    expect(mergeReports([{ file: 'a.json', report: empty(1, 2) }, { file: 'b.json', report: empty(2, 3) }])).toEqual({
      ok: false,
      error: 'b.json holds shard 2/3 and a.json shard 1/2: the shards of one run share their total N (--shard I/N)',
    });
    expect(mergeReports([{ file: 'a.json', report: empty(1, 2) }, { file: 'b.json', report: empty(1, 2) }])).toEqual({ ok: false, error: 'shard 1/2 is in both a.json and b.json' });
    const { shard: _none, ...wholeRun } = empty(1, 2);
    expect(mergeReports([{ file: 'a.json', report: empty(1, 2) }, { file: 'w.json', report: wholeRun }])).toMatchObject({ ok: false, error: expect.stringContaining('w.json is the report of a whole run') });
  });
});
