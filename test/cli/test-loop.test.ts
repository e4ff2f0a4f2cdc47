import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { GREET, GREET_FAILING, suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));
const read = async (s: { read(f: string): Promise<string> }, file: string) => {
  const report = JSON.parse(await s.read(file)) as RunReport;
  expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
  return report;
};
const ran = (report: RunReport) => report.results.map((r) => `${r.name} [${r.transport}] ${r.status}`);

/** Passing, failing (an assertion) and erroring (a timeout) tests. */
const FILES = {
  'flows/greet.yaml': GREET,
  'flows/bad.yaml': GREET_FAILING,
  'flows/stuck.yaml': `flow: echo\ntransport: https\ntests:\n  - { name: too slow, timeout: 500ms, until: { steps: 2 } }\n`,
};

describe('rerunning what failed', () => {
  it('--last-failed runs exactly the failed and errored tests of the last run, and says when nothing failed', async () => {
    const s = await suite(FILES);
    expect((await s.test(['--reporter', 'json=first.json'])).code).toBe(3);
    const record = JSON.parse(await s.read('.roleflow/last-run.json')) as { runs: { tenant: string; not_passed: unknown[] }[] };
    expect(record.runs.map((r) => [r.tenant, r.not_passed.length])).toEqual([['local', 3]]);
    expect(await s.read('.roleflow/.gitignore')).toContain('*');

    const again = await s.test(['--last-failed', '--reporter', 'json=rerun.json']);
    expect(again.code).toBe(3);
    const rerun = await read(s, 'rerun.json');
    expect(ran(rerun)).toEqual(['expects a wrong greeting [https] fail', 'expects a wrong greeting [ws] fail', 'too slow [https] error']);
    expect(rerun.selection).toMatchObject({ rerun: { from: '.roleflow/last-run.json' } });

    expect((await s.test(['flows/greet.yaml'])).code).toBe(0);
    const nothing = await s.test(['--last-failed']);
    expect(nothing).toMatchObject({ code: 0, stdout: '' });
    expect(nothing.stderr).toMatch(/^nothing to rerun: no test failed in the last run of tenant local \(4 tests × transports, finished /);
  });

  it('--last-failed from a subfolder reruns the tests a run from the top recorded, and records its own for a run from the top', async () => {
    const s = await suite(FILES);
    expect((await s.test(['--reporter', 'json=first.json'])).code).toBe(3);
    await s.write('sub/.keep', '');
    const below = await s.test(['--last-failed', '--reporter', 'json=rerun.json'], { cwd: join(s.dir, 'sub') });
    expect(below.code, below.stderr).toBe(3);
    const rerun = await read(s, 'sub/rerun.json');
    expect(ran(rerun)).toEqual(['expects a wrong greeting [https] fail', 'expects a wrong greeting [ws] fail', 'too slow [https] error']);
    expect(rerun.results.map((r) => r.id)).toContain('../flows/bad.yaml > expects a wrong greeting');
    // Recorded as seen from beside the config: the top finds them again.
    const record = JSON.parse(await s.read('.roleflow/last-run.json')) as { runs: { not_passed: { id: string }[] }[] };
    expect(record.runs[0]!.not_passed.map((t) => t.id)).toContain('flows/bad.yaml > expects a wrong greeting');
    expect((await s.test(['--last-failed', '--reporter', 'json=top.json'])).code).toBe(3);
    expect(ran(await read(s, 'top.json'))).toEqual(['expects a wrong greeting [https] fail', 'expects a wrong greeting [ws] fail', 'too slow [https] error']);
  });

  it('--failed-from REPORT --only errors runs only the tests the tenant or the network failed', async () => {
    const s = await suite(FILES);
    await s.test(['--reporter', 'json=first.json']);
    const r = await s.test(['--failed-from', 'first.json', '--only', 'errors', '--reporter', 'json=errors.json']);
    expect(r.code).toBe(3);
    expect(ran(await read(s, 'errors.json'))).toEqual(['too slow [https] error']);
    expect((await s.test(['--only', 'errors'])).stderr).toContain('--only errors narrows a rerun');
  });

  it('--failed-from a report of another tenant says so before it reruns the failed tests here; of this tenant, says nothing', async () => {
    const s = await suite(FILES);
    await s.test(['--reporter', 'json=first.json']);
    const same = await s.test(['--failed-from', 'first.json', '--only', 'errors']);
    expect(same.stderr).not.toContain('is a report of tenant');
    const report = JSON.parse(await s.read('first.json')) as { tenant: { name: string } };
    await s.write('staging.json', JSON.stringify({ ...report, tenant: { ...report.tenant, name: 'staging\u001b[2J' } }));
    const other = await s.test(['--failed-from', 'staging.json', '--only', 'errors', '--reporter', 'json=errors.json']);
    expect(other.stderr).toContain('note: staging.json is a report of tenant staging\\u001b[2J; its failed tests run on tenant local\n');
    expect(ran(await read(s, 'errors.json'))).toEqual(['too slow [https] error']);
  });

  it('report merge FIRST RERUN --prefer-last shows each test once, the rerun replacing the first result, both in its history', async () => {
    const s = await suite(FILES);
    await s.test(['--reporter', 'json=first.json']);
    await s.write('flows/bad.yaml', GREET_FAILING.replace('equals: Hi Linus', 'equals: Hello Linus').replace('"< 10ms"', '"< 10s"'));
    await s.test(['--last-failed', '--reporter', 'json=rerun.json']);
    const merged = await s.run(['report', 'merge', 'first.json', 'rerun.json', '--prefer-last', '--out', 'merged.json', '--reporter', 'console']);
    expect(merged.code).toBe(3);
    const report = await read(s, 'merged.json');
    expect(ran(report)).toEqual([
      'expects a wrong greeting [https] pass',
      'expects a wrong greeting [ws] pass',
      'greets Ada [https] pass',
      'greets Ada [ws] pass',
      'greets Grace [https] pass',
      'greets Grace [ws] pass',
      'too slow [https] error',
    ]);
    expect(report.results[0]!.history?.map((h) => [h.report, h.status])).toEqual([
      ['first.json', 'fail'],
      ['rerun.json', 'pass'],
    ]);
    expect(report.selection?.rerun).toBeUndefined();
    expect((await s.run(['report', 'merge', 'first.json', 'rerun.json', '--out', 'm.json'])).stderr).toContain('--prefer-last');
  });
});

describe('tags and a suite-wide pass rate', () => {
  const TAGGED = {
    'flows/greet.yaml': GREET.replace('flow: greet\n', 'flow: greet\ntags: [smoke]\ntransport: https\n'),
    'flows/bad.yaml': GREET_FAILING.replace('flow: greet\n', 'flow: greet\ntransport: https\n').replace('  - name: expects a wrong greeting\n', '  - name: expects a wrong greeting\n    tags: [slow]\n'),
  };

  it('--tag and --exclude-tag select the tests, and the report records them (promote wants the whole suite)', async () => {
    const s = await suite(TAGGED);
    const smoke = await s.test(['--tag', 'smoke', '--reporter', 'json=smoke.json']);
    expect(smoke.code).toBe(0);
    const report = await read(s, 'smoke.json');
    expect(ran(report)).toEqual(['greets Ada [https] pass', 'greets Grace [https] pass']);
    expect(report.selection).toMatchObject({ tags: ['smoke'] });
    expect(ran(await (async () => (await s.test(['--exclude-tag', 'smoke', '--reporter', 'json=x.json']), read(s, 'x.json')))())).toEqual(['expects a wrong greeting [https] fail']);
    const none = await s.test(['--tag', 'nightly']);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toContain('no test matches --tag nightly');
  });

  it('--min-pass-rate judges the suite as a whole: failures reported, the exit code following the rate', async () => {
    const s = await suite(TAGGED);
    const met = await s.test(['--min-pass-rate', '60%', '--reporter', 'console', '--reporter', 'json=r.json']);
    expect(met.code).toBe(0);
    expect(met.stdout).toContain('✗ flows/bad.yaml > expects a wrong greeting');
    expect(met.stdout).toContain('Pass rate: 66.66% passed (--min-pass-rate 60%: met)');
    expect((await read(s, 'r.json')).gate).toEqual({ min_pass_rate: 60, set_by: '--min-pass-rate', pass_rate: 66.66, passed: true });
    expect((await s.test(['--min-pass-rate', '90%'])).code).toBe(3);
    await s.write('roleflow.config.yaml', 'local: { flows_config: emulator-flows.yaml }\nflows: { min_pass_rate: 50% }\n');
    const configured = await s.test(['--reporter', 'console', '--reporter', 'json=c.json']);
    expect(configured.code).toBe(0);
    expect(configured.stdout).toContain('Pass rate: 66.66% passed (flows.min_pass_rate 50%: met)');
    expect((await read(s, 'c.json')).gate).toMatchObject({ min_pass_rate: 50, set_by: 'flows.min_pass_rate' });
    expect((await s.test(['--min-pass-rate', 'most'])).stderr).toContain('invalid --min-pass-rate "most"');
  });
});

describe('shards balanced by time', () => {
  const MANY = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`flows/t${i}.yaml`, `flow: echo\ntransport: https\ntests:\n  - { name: test ${i}, inputs: { n: "${i}" } }\n`]));

  it('records the shard plan; report merge refuses shards of different plans and merges those of one', async () => {
    const s = await suite(MANY);
    await s.test(['--reporter', 'json=timings.json']);
    // Durations fixed, so the timed plan is never round-robin's by chance: test 0 alone in shard 1.
    const timings = await read(s, 'timings.json');
    for (const r of timings.results) for (const x of r.repeats) x.wall_ms = r.name === 'test 0' ? 100 : r.name === 'test 1' ? 90 : 1;
    await s.write('timings.json', JSON.stringify(timings));
    for (const i of [1, 2]) await s.test(['--shard', `${i}/2`, '--timings', 'timings.json', '--pass-with-no-tests', '--reporter', `json=timed-${i}.json`]);
    await s.test(['--shard', '2/2', '--reporter', 'json=robin-2.json']);
    const one = await read(s, 'timed-1.json');
    expect(one.shard_plan).toMatchObject({ by: 'timings', digest: expect.stringMatching(/^sha256:/) });
    expect((await read(s, 'timed-2.json')).shard_plan?.digest).toBe(one.shard_plan?.digest);
    expect(ran(one)).toEqual(['test 0 [https] pass']);
    const mixed = await s.run(['report', 'merge', 'timed-1.json', 'robin-2.json', '--out', 'm.json']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('are shards of different plans');
    const merged = await s.run(['report', 'merge', 'timed-1.json', 'timed-2.json', '--out', 'm.json']);
    expect(merged.code).toBe(0);
    expect((await read(s, 'm.json')).summary.tests).toBe(6);
  });

  it('--shard auto reads the CI system\'s variables', async () => {
    const s = await suite(MANY);
    const r = await s.test(['--shard', 'auto', '--reporter', 'json=r.json'], { env: { CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '3' } });
    expect(r.code).toBe(0);
    expect((await read(s, 'r.json')).shard).toEqual({ index: 2, total: 3 });
    expect((await s.test(['--shard', 'auto'])).stderr).toContain('no shard index in the environment');
  });

  it('roleflow shards prints a GitHub Actions matrix from the timings', async () => {
    const s = await suite(MANY);
    await s.test(['--reporter', 'json=timings.json']);
    const r = await s.run(['shards', '--timings', 'timings.json', '--target-minutes', '0.0001', '--max-jobs', '3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      include: [
        { tenant: 'local', shard: '1/3' },
        { tenant: 'local', shard: '2/3' },
        { tenant: 'local', shard: '3/3' },
      ],
    });
    const text = await s.run(['shards', '--timings', 'timings.json']);
    expect(text.stdout).toMatch(/^local: 1 shard of about [\d.]+ minutes \(4 executions at once each\)\n1 job for 6 tests; --json prints the matrix\.\n$/);
  });

  it('report merge of shards judged by different pass rates says so, and judges by its own --min-pass-rate or leaves the gate out', async () => {
    const s = await suite(MANY);
    expect((await s.test(['--shard', '1/2', '--min-pass-rate', '50%', '--reporter', 'json=s1.json'])).code).toBe(0);
    expect((await s.test(['--shard', '2/2', '--min-pass-rate', '60%', '--reporter', 'json=s2.json'])).code).toBe(0);
    const bare = await s.run(['report', 'merge', 's1.json', 's2.json', '--out', 'm.json']);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toContain('warning: the reports were judged by different pass rates (50%, 60%): the merged report has no gate (give --min-pass-rate to judge it by one)\n');
    expect((await read(s, 'm.json')).gate).toBeUndefined();
    const judged = await s.run(['report', 'merge', 's1.json', 's2.json', '--out', 'm.json', '--min-pass-rate', '90%']);
    expect(judged.code).toBe(0);
    expect(judged.stderr).toContain('warning: the reports were judged by different pass rates (50%, 60%): the merged run is judged by --min-pass-rate 90%\n');
    expect((await read(s, 'm.json')).gate).toEqual({ min_pass_rate: 90, set_by: '--min-pass-rate', pass_rate: 100, passed: true });
  });

  it('roleflow shards counts one test and one job in the singular', async () => {
    const s = await suite({ 'flows/echo.yaml': 'flow: echo\ntransport: https\ntests:\n  - { name: echoes }\n' });
    await s.test(['--reporter', 'json=timings.json']);
    const text = await s.run(['shards', '--timings', 'timings.json']);
    expect(text.stdout).toMatch(/^local: 1 shard of about [\d.]+ minutes \(4 executions at once each\)\n1 job for 1 test; --json prints the matrix\.\n$/);
  });

  it('roleflow shards refuses a tenant the config does not know, as test does, rather than plan jobs that cannot run', async () => {
    const s = await suite(MANY);
    await s.test(['--reporter', 'json=timings.json']);
    for (const [args, env] of [[['--tenant', 'staging'], {}], [[], { ROLEFLOW_TENANT: 'staging' }]] as const) {
      const r = await s.run(['shards', '--timings', 'timings.json', ...args, '--json'], { env });
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toMatch(/^error: unknown tenant "staging"[^\n]*; known: local\n$/);
    }
  });
});

describe('report merge to stdout', () => {
  it('--out - prints the merged JSON alone, and refuses a reporter that would share stdout', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    await s.test(['--reporter', 'json=r.json']);
    const r = await s.run(['report', 'merge', 'r.json', '--out', '-']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ summary: { tests: 4, passed: 4 } });
    expect((await s.run(['report', 'merge', 'r.json', '--out', '-', '--reporter', 'console'])).stderr).toContain('--out - writes the merged report on stdout');
  });
});
