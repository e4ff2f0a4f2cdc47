import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import type { RunReport } from '../../src/report/model.js';
import { runBin, tempDir } from '../helpers/cli.js';
import { runReport } from '../report/builders.js';
import { slowerReports, timedResult } from '../report/compare-kit.js';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.map((c) => c()));
  cleanups = [];
});

async function reportFiles(base: RunReport, head: RunReport): Promise<string> {
  const t = await tempDir('roleflow-compare-');
  cleanups.push(t.cleanup);
  await writeFile(join(t.dir, 'base.json'), renderJson(base));
  await writeFile(join(t.dir, 'head.json'), renderJson(head));
  return t.dir;
}

describe('roleflow report compare', () => {
  it('exits 3 with --fail-on-regression when a step is 50% slower over 20 samples a side, and names it', async () => {
    const { base, head } = slowerReports(20, 1.5);
    const cwd = await reportFiles(base, head);
    const r = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression'], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^ {2}step llm +p50 2\d\dms → 3\d\dms \(\+\d\d(\.\d)?%\).*n 20 → 20 {2}p < 0\.001 {2}REGRESSION$/m);
    expect(r.stdout).toContain('2 regressions, 0 newly failing');
    // Without the flag the comparison is only reported.
    expect((await runBin(['report', 'compare', 'base.json', 'head.json'], { cwd })).code).toBe(0);
  });

  it('exits 0 on a 5% change, and on a 50% change with 2 samples ("not enough samples")', async () => {
    const small = slowerReports(20, 1.05);
    const r = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression'], { cwd: await reportFiles(small.base, small.head) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no significant change');
    const few = slowerReports(2, 1.5);
    const f = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression', '--format', 'json'], { cwd: await reportFiles(few.base, few.head) });
    expect(f.code).toBe(0);
    const json = JSON.parse(f.stdout);
    expect(json).toMatchObject({ base: 'base.json', head: 'head.json', regressions: 0, failing: false });
    expect(json.tests[0].steps[0]).toMatchObject({ service: 'llm', verdict: 'not_enough_samples', p: null, change: { p50: expect.closeTo(0.5, 1) } });
  });

  it('lists the newly failing tests with file:line and exits 3 with --fail-on-regression; markdown has a table', async () => {
    const ms = () => 100;
    const base = runReport([timedResult('breaks', 1, ms), timedResult('stays', 1, ms)]);
    const head = runReport([timedResult('breaks', 1, ms, { failing: true }), timedResult('stays', 1, ms)]);
    const cwd = await reportFiles(base, head);
    const r = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression'], { cwd });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Newly failing \(1\):\n {2}flows\/t\.yaml:\d+ {2}flows\/t\.yaml > breaks \[https\]: .+$/m);
    const md = await runBin(['report', 'compare', 'base.json', 'head.json', '--format', 'markdown'], { cwd });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| test | transport | latency | p50 | p95 | p | verdict | pass |');
    expect(md.stdout).toContain('### Newly failing (1)');
  });

  it('names a missing or invalid report and a bad --threshold in one line, exit 1', async () => {
    const { base, head } = slowerReports(2, 1);
    const cwd = await reportFiles(base, head);
    await writeFile(join(cwd, 'bad.json'), '{"format_version": 1}');
    const bad = await runBin(['report', 'compare', 'base.json', 'bad.json'], { cwd });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^error: bad\.json: not a roleflow JSON report: .+\n$/);
    const threshold = await runBin(['report', 'compare', 'base.json', 'head.json', '--threshold', 'lots'], { cwd });
    expect(threshold).toMatchObject({ code: 1, stderr: 'error: --threshold lots: give a percentage, such as 20%\n' });
    const format = await runBin(['report', 'compare', 'base.json', 'head.json', '--format', 'html'], { cwd });
    expect(format).toMatchObject({ code: 1, stderr: 'error: unknown --format html: use text, markdown, json\n' });
  });

  it('never passes a HEAD it cannot judge: not run, newly skipped, or holding 1e999', async () => {
    const ms = () => 100;
    const base = runReport([timedResult('interrupted', 1, ms), timedResult('skipped now', 1, ms), timedResult('steady', 1, ms)]);
    const head = runReport([
      { ...timedResult('interrupted', 1, ms), status: 'not_run' },
      { ...timedResult('skipped now', 1, ms), status: 'skip' },
      timedResult('steady', 1, ms),
    ]);
    const cwd = await reportFiles(base, head);
    const r = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression'], { cwd });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^Not judged \(a regression; --allow-skipped accepts them\) \(2\):\n {2}\S+ {2}flows\/t\.yaml > interrupted \[https\]: not run in HEAD\n {2}\S+ {2}flows\/t\.yaml > skipped now \[https\]: skipped in HEAD, pass in BASE$/m);
    expect(r.stdout).toContain('0 regressions, 0 newly failing, 2 not judged');
    const allowed = await runBin(['report', 'compare', 'base.json', 'head.json', '--fail-on-regression', '--allow-skipped', '--format', 'json'], { cwd });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ failing: false, allow_skipped: true, not_judged: [{ head: 'not_run', base: 'pass' }, { head: 'skip', base: 'pass' }] });

    // A latency of 1e999 parses as Infinity: an invalid report, naming the file and the value.
    await writeFile(join(cwd, 'inf.json'), renderJson(head).replace(/"wall_ms": \d+/, '"wall_ms": 1e999'));
    const inf = await runBin(['report', 'compare', 'base.json', 'inf.json', '--fail-on-regression'], { cwd });
    expect(inf).toMatchObject({ code: 1, stdout: '' });
    expect(inf.stderr).toMatch(/^error: inf\.json: not a roleflow JSON report: results\[0\]\.(repeats\[0\]\.)?wall_ms: a number too large to judge \(not finite\)\n$/);
  });

  it.each([[['--threshold', '-10%']], [['--threshold=-10%']], [['--threshold', '-0.5']]])('refuses a negative threshold %j in one clear line', async (flags) => {
    const { base, head } = slowerReports(2, 1);
    const cwd = await reportFiles(base, head);
    const r = await runBin(['report', 'compare', 'base.json', 'head.json', ...flags], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: --threshold -[\d.]+%?: must be 0% or more: it is how much slower a p50 or p95 must get to be a regression, such as 20%\n$/);
  });
});
