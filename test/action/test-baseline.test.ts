import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionTestbed, echoFlowFile, GITHUB_TOKEN, ROLEFLOW_TOKEN, visibleLog, type ActionRun } from './run-action.js';

const MARKER = '<!-- roleflow:test:local -->';

// Both pass.
const FLOWS = echoFlowFile([
  { name: 'returns its inputs', key: 'greeting', value: 'hello' },
  { name: 'keeps the ticket', key: 'ticket', value: 'T-7' },
]);

const bed = actionTestbed('roleflow-action-baseline-', async (workspace) => {
  await mkdir(join(workspace, 'flows'), { recursive: true });
  await writeFile(join(workspace, 'flows', 'echo.yaml'), FLOWS);
});

function action(inputs: Record<string, string>): Promise<ActionRun> {
  return bed.run({ command: 'test', args: '--repeat 5', ...inputs });
}

/** The report of a real run, every client wall-clock sample scaled: 0.001 makes a fast baseline, 1000 a slow one. */
function scaledReport(report: string, factor: number): string {
  const value = JSON.parse(readFileSync(report, 'utf8')) as { results: { repeats: { wall_ms: number | null }[] }[] };
  for (const result of value.results) for (const repeat of result.repeats) if (repeat.wall_ms !== null) repeat.wall_ms *= factor;
  return JSON.stringify(value);
}

function expectNoToken(...runs: ActionRun[]): void {
  const seen = [...runs.flatMap((r) => [visibleLog(r.log), r.summary, JSON.stringify(r.outputs)]), ...bed.github.comments.map((c) => c.body)].join('\n');
  expect(seen).not.toContain(GITHUB_TOKEN);
  expect(seen).not.toContain(ROLEFLOW_TOKEN);
}

function ourComment(): string {
  const ours = bed.github.comments.filter((c) => c.body.startsWith(MARKER));
  expect(ours).toHaveLength(1);
  return ours[0]!.body;
}

describe('the Action, command: test with a baseline', () => {
  beforeAll(async () => {
    // The default branch's run: its JSON report is what a pull request compares with.
    const main = await action({ comment: 'false' });
    expect(main.outputs, main.log).toMatchObject({ exitcode: '0', 'tests-passed': '2' });
    await mkdir(join(bed.workspace, 'baseline'), { recursive: true });
    await writeFile(join(bed.workspace, 'baseline', 'fast.json'), scaledReport(main.outputs['report-file']!, 0.001));
    await writeFile(join(bed.workspace, 'baseline', 'slow.json'), scaledReport(main.outputs['report-file']!, 1000));
  }, 120_000);

  it('fails the step on a significant regression with fail-on-regression, and comments the comparison under the results', async () => {
    const run = await action({ baseline: 'baseline/fast.json', 'fail-on-regression': 'true', 'html-report': 'out/roleflow-report.html' });
    expect(run.code).toBe(1);
    // The tests passed: the comparison is what failed the step, and both exit codes are outputs.
    expect(run.outputs).toMatchObject({ exitcode: '0', 'tests-passed': '2', 'tests-failed': '0', 'compare-exitcode': '3', regression: 'true' });
    expect(run.log).toContain('::error::roleflow report compare: a significant regression or a newly failing test against the baseline (exit code 3)');
    // `--baseline` reached `roleflow test` (relative budgets), and the comparison ran on its report.
    expect(run.log).toMatch(/::group::roleflow test .*--baseline \S*baseline\/fast\.json/);
    expect(run.log).toMatch(/::group::roleflow report compare baseline\/fast\.json \S+roleflow-report-local\.json --format markdown --fail-on-regression/);

    const body = ourComment();
    expect(body).toContain('**2 passed, 0 failed, 0 skipped** of 2');
    // The comparison follows the results table: the verdict, then a row per test with its latency change.
    expect(body.indexOf('## ❌ roleflow: 2 regressions, 0 newly failing')).toBeGreaterThan(body.indexOf('| ✅ pass |'));
    expect(body).toMatch(/\| flows\/echo\.yaml \\> returns its inputs \| ws \| wall-clock \| .* \| \*\*regression\*\* \| pass 5\/5 → pass 5\/5 \|/);
    expect(body).toContain('`baseline/fast.json` →');
    expect(run.summary).toContain('## ❌ roleflow: 2 regressions');

    // The HTML report, where the output says, for an upload step.
    const html = run.outputs['html-report']!;
    expect(html).toBe(join(bed.workspace, 'out', 'roleflow-report.html'));
    expect(readFileSync(html, 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(run.summary).toContain('The HTML report is <code>out/roleflow-report.html</code>');
    expectNoToken(run);
  });

  it('shows a regression without failing the step when fail-on-regression is off, in the same comment', async () => {
    const run = await action({ baseline: 'baseline/fast.json' });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'compare-exitcode': '3', regression: 'true' });
    expect(run.outputs['html-report']).toBeUndefined();
    expect(run.log).not.toContain('::error::');
    expect(ourComment()).toContain('**regression**');
    expectNoToken(run);
  });

  it('passes a faster run with fail-on-regression, and passes the threshold on', async () => {
    const faster = await action({ baseline: 'baseline/slow.json', 'fail-on-regression': 'true' });
    expect(faster.code, faster.log).toBe(0);
    expect(faster.outputs).toMatchObject({ 'compare-exitcode': '0', regression: 'false' });
    expect(ourComment()).toMatch(/\| flows\/echo\.yaml \\> keeps the ticket \| ws \| wall-clock \| .* \| faster \|/);

    // A thousand times slower (give or take the two runs' noise) is within a 100000000% threshold.
    const lenient = await action({ baseline: 'baseline/fast.json', 'fail-on-regression': 'true', 'regression-threshold': '100000000%' });
    expect(lenient.code, lenient.log).toBe(0);
    expect(lenient.outputs).toMatchObject({ 'compare-exitcode': '0', regression: 'false' });
    expect(lenient.log).toContain('--threshold 100000000%');
    expect(ourComment()).toContain('## ✅ roleflow: 0 regressions');
  });

  it('runs without a baseline that is not there, says so, and compares nothing', async () => {
    const run = await action({ baseline: 'baseline/none-yet.json', 'fail-on-regression': 'true' });
    expect(run.code, run.log).toBe(0);
    expect(run.log).toContain('::warning::No baseline report at baseline/none-yet.json: relative budgets are skipped and nothing is compared.');
    expect(run.log).not.toContain('--baseline');
    expect(run.outputs['compare-exitcode']).toBeUndefined();
    expect(run.outputs['regression']).toBeUndefined();
    const body = ourComment();
    expect(body).toContain('> No baseline report at <code>baseline/none-yet.json</code>: relative budgets were skipped and nothing was compared.');
    expect(body).not.toContain('regression');
  });

  it('fails in one line on a baseline that is not a report', async () => {
    await writeFile(join(bed.workspace, 'baseline', 'broken.json'), '{"not": "a report"}');
    const run = await action({ baseline: 'baseline/broken.json', comment: 'false' });
    expect(run.code).toBe(1);
    expect(run.outputs['exitcode']).toBe('1');
    expect(run.log).toMatch(/baseline\/broken\.json/);
    expect(run.log).not.toMatch(/\n\s+at /);
  });

  it('compares merged shards with the baseline and writes their HTML report', async () => {
    const shards = join(bed.workspace, 'shards');
    for (const shard of ['1/2', '2/2']) {
      const run = await action({ args: `--repeat 5 --shard ${shard}`, comment: 'false' });
      await mkdir(join(shards, shard.replace('/', '-of-')), { recursive: true });
      await writeFile(join(shards, shard.replace('/', '-of-'), 'report.json'), readFileSync(run.outputs['report-file']!));
    }
    const merged = await bed.run({ command: 'merge', args: 'shards', baseline: 'baseline/fast.json', 'fail-on-regression': 'true', 'html-report': 'merged.html' });
    expect(merged.code).toBe(1);
    expect(merged.outputs).toMatchObject({ exitcode: '0', 'tests-passed': '2', 'compare-exitcode': '3', regression: 'true' });
    expect(existsSync(merged.outputs['html-report']!)).toBe(true);
    const body = ourComment();
    expect(body).toContain('(2 shards merged)');
    expect(body).toContain('## ❌ roleflow: 2 regressions');
    expectNoToken(merged);
  });

  it('keeps the comment within GitHub\'s limit when the comparison is long, saying what it cut', async () => {
    // 3,000 tests × transports: the results table and the comparison both overflow one comment.
    const many = (factor: number): string => {
      const value = JSON.parse(scaledReport(join(bed.workspace, 'shards', '1-of-2', 'report.json'), factor)) as { results: { id: string; name: string }[]; summary: Record<string, number>; shard?: unknown };
      delete value.shard;
      const one = value.results[0]!;
      value.results = Array.from({ length: 3000 }, (_, i) => ({ ...one, id: `${one.id} #${i}`, name: `${one.name} #${i}` }));
      value.summary = { ...value.summary, tests: 3000, passed: 3000, failed: 0, errored: 0, skipped: 0 };
      return JSON.stringify(value);
    };
    await mkdir(join(bed.workspace, 'large'), { recursive: true });
    await writeFile(join(bed.workspace, 'large', 'head.json'), many(1));
    await writeFile(join(bed.workspace, 'baseline', 'large.json'), many(0.001));
    const run = await bed.run({ command: 'merge', args: 'large', baseline: 'baseline/large.json', 'fail-on-regression': 'true' });
    expect(run.outputs, run.log).toMatchObject({ 'compare-exitcode': '3', regression: 'true' });
    const body = ourComment();
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain('more results not shown');
    expect(body).toContain('## ❌ roleflow: 3000 regressions');
    expect(body).toContain('… the comparison is cut to fit; all of it is in the job summary.');
    expect(body).toMatch(/<sub>`roleflow report merge` for abcdef0/);
  });
});
