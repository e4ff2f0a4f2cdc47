import { describe, expect, it } from 'vitest';
import { badTagFlag, failedIn, judgePassRate, lastFailed, lastRunRecord, parseLastRun, parsePassRate, passRateText, rerunKey, tagsSelect, withLastRun } from '../../../../src/core/runs/loop/index.js';

const results = [
  { id: 'f > passes', transport: 'https' as const, status: 'pass' },
  { id: 'f > fails', transport: 'https' as const, status: 'fail' },
  { id: 'f > fails', transport: 'ws' as const, status: 'pass' },
  { id: 'f > errs', transport: 'ws' as const, status: 'error' },
  { id: 'f > skipped', transport: 'https' as const, status: 'skip' },
];

describe('the last run and reruns', () => {
  it('records what did not pass, by id and transport, and --last-failed takes the failed and errored ones', () => {
    const file = withLastRun(undefined, lastRunRecord('local', '2026-01-01T00:00:00.000Z', results));
    const read = parseLastRun(JSON.parse(JSON.stringify(file)), '.roleflow/last-run.json');
    expect(read).toEqual({ ok: true, value: file });
    const rerun = lastFailed(file, 'local', '.roleflow/last-run.json', false);
    expect(rerun.ok && [...rerun.value.keys]).toEqual([rerunKey('f > fails', 'https'), rerunKey('f > errs', 'ws')]);
    const errors = lastFailed(file, 'local', '.roleflow/last-run.json', true);
    expect(errors.ok && [...errors.value.keys]).toEqual([rerunKey('f > errs', 'ws')]);
  });

  it('says when nothing failed, and refuses a tenant with no recorded run', () => {
    const file = withLastRun(undefined, lastRunRecord('local', 'T', [results[0]!]));
    expect(lastFailed(file, 'local', 'x', false)).toMatchObject({ ok: true, value: { nothing: expect.stringContaining('nothing to rerun: no test failed') } });
    expect(lastFailed(file, 'staging', 'x', false)).toMatchObject({ ok: false, error: expect.stringContaining('no run of tenant staging') });
  });

  it('keeps each tenant\'s last run, replacing only the one run again', () => {
    let file = withLastRun(undefined, lastRunRecord('staging', 'T1', results));
    file = withLastRun(file, lastRunRecord('local', 'T2', []));
    file = withLastRun(file, lastRunRecord('staging', 'T3', []));
    expect(file.runs.map((r) => [r.tenant, r.finished_at])).toEqual([
      ['local', 'T2'],
      ['staging', 'T3'],
    ]);
  });

  it('refuses a file roleflow did not write, in one line', () => {
    expect(parseLastRun({ runs: [] }, 'x.json')).toMatchObject({ ok: false, error: expect.stringMatching(/^x\.json: not a last-run record/) });
    expect(parseLastRun({ format_version: 1, runs: [{ tenant: 'a', finished_at: 'T', tests: 1, not_passed: [{ id: 'x' }] }] }, 'x.json')).toMatchObject({ ok: false });
  });

  it('--failed-from takes a report\'s failed tests; --only errors only those the tenant or network failed', () => {
    expect([...failedIn(results, 'r.json', false).keys]).toHaveLength(2);
    expect(failedIn(results, 'r.json', true)).toEqual({ keys: new Set([rerunKey('f > errs', 'ws')]), from: 'r.json', only: 'errors' });
  });
});

describe('tags', () => {
  it('selects tests with any --tag, and none with an --exclude-tag', () => {
    const filter = { include: ['smoke', 'refunds'], exclude: ['slow'] };
    expect(tagsSelect(['smoke'], filter)).toBe(true);
    expect(tagsSelect(['refunds', 'slow'], filter)).toBe(false);
    expect(tagsSelect(undefined, filter)).toBe(false);
    expect(tagsSelect(undefined, { include: [], exclude: ['slow'] })).toBe(true);
    expect(badTagFlag('--tag', ['a b'])).toContain('invalid --tag "a b"');
    expect(badTagFlag('--tag', ['smoke'])).toBeUndefined();
  });
});

describe('--min-pass-rate', () => {
  it('reads percentages and judges passed over passed and failed', () => {
    expect(parsePassRate('95%', '--min-pass-rate')).toEqual({ ok: true, value: 95 });
    expect(parsePassRate(99.5, 'flows.min_pass_rate')).toEqual({ ok: true, value: 99.5 });
    expect(parsePassRate('101%', '--min-pass-rate')).toMatchObject({ ok: false, error: expect.stringContaining('from 0% to 100%') });
    expect(parsePassRate('lots', '--min-pass-rate')).toMatchObject({ ok: false });
    expect(judgePassRate({ passed: 19, failed: 1 }, 95)).toEqual({ min_pass_rate: 95, pass_rate: 95, passed: true });
    expect(judgePassRate({ passed: 18, failed: 1 }, 95)).toEqual({ min_pass_rate: 95, pass_rate: 94.73, passed: false });
    expect(judgePassRate({ passed: 0, failed: 0 }, 0)).toEqual({ min_pass_rate: 0, pass_rate: null, passed: false });
  });

  it('does not let a run that --bail stopped meet the rate: the tests it never ran are not judged', () => {
    const gate = judgePassRate({ passed: 3, failed: 1 }, 50, true);
    expect(gate).toEqual({ min_pass_rate: 50, pass_rate: 75, passed: false });
    expect(passRateText(gate)).toBe('75% passed (min pass rate 50%: not met, the run stopped early: --bail)');
    expect(passRateText(judgePassRate({ passed: 3, failed: 1 }, 50, false, 'flows.min_pass_rate'))).toBe('75% passed (flows.min_pass_rate 50%: met)');
    expect(passRateText(judgePassRate({ passed: 3, failed: 1 }, 50, false, '--min-pass-rate'))).toBe('75% passed (--min-pass-rate 50%: met)');
    expect(judgePassRate({ passed: 3, failed: 1 }, 50)).toMatchObject({ passed: true });
  });

  it('refuses a bare number from 0 to 1, which reads as a fraction (0.95 meaning 95%) but would gate at under 1%', () => {
    expect(parsePassRate(0.95, 'flows.min_pass_rate')).toMatchObject({ ok: false, error: expect.stringContaining('write it with %, like 95%') });
    expect(parsePassRate('0.95', '--min-pass-rate')).toMatchObject({ ok: false, error: expect.stringContaining('invalid --min-pass-rate "0.95"') });
    expect(parsePassRate(1, 'flows.min_pass_rate')).toMatchObject({ ok: false });
    expect(parsePassRate('0.95%', '--min-pass-rate')).toEqual({ ok: true, value: 0.95 });
    expect(parsePassRate('1%', '--min-pass-rate')).toEqual({ ok: true, value: 1 });
    expect(parsePassRate(0, 'flows.min_pass_rate')).toEqual({ ok: true, value: 0 });
    expect(parsePassRate(95, 'flows.min_pass_rate')).toEqual({ ok: true, value: 95 });
  });
});
