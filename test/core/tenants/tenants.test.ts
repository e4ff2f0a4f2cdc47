import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../../src/core/config.js';
import { InvalidFilesError, RoleflowError } from '../../../src/core/errors.js';
import { isTenantFailure, pathCovers, reportGateReasons, selectTenants, tenantError, type GateReport } from '../../../src/core/tenants/index.js';

const SHA = 'abc1234abc1234abc1234abc1234abc1234abc12';

function report(over: Partial<GateReport> = {}): GateReport {
  return {
    tenant: { name: 'staging', base_url: 'https://staging.example' },
    commit: SHA,
    selection: { flows_dir: 'flows', paths: [] },
    summary: { tests: 2, passed: 2, skipped: 0, failed: 0, errored: 0, not_run: 0 },
    results: [{ id: 'f.yaml > a', transport: 'ws', status: 'pass' }, { id: 'f.yaml > b', transport: 'ws', status: 'pass' }],
    ...over,
  };
}
const expected = { from: 'staging', fromUrl: 'https://staging.example', commit: SHA };

describe('the promotion gate on a test report', () => {
  it('lets a complete, passing report of the tenant at this commit through, a merged one included', () => {
    expect(reportGateReasons(report(), expected)).toEqual([]);
    expect(reportGateReasons(report({ merged_shards: [{ index: 1, total: 2 }, { index: 2, total: 2 }] }), expected)).toEqual([]);
  });

  it('names every reason at once', () => {
    const bad = report({
      tenant: { name: 'qa', base_url: 'https://qa.example' },
      interrupted: true,
      summary: { tests: 3, passed: 0, skipped: 0, failed: 2, errored: 1, not_run: 1 },
      results: [
        { id: 'f.yaml > a', transport: 'ws', status: 'fail' },
        { id: 'f.yaml > b', transport: 'https', status: 'error' },
        { id: 'f.yaml > c', transport: 'ws', status: 'not_run' },
      ],
      commit: 'def5678',
    });
    expect(reportGateReasons(bad, expected)).toEqual([
      'the report is of tenant "qa", not of "staging"',
      'the test run was interrupted',
      '1 test of the report did not run (the run was interrupted)',
      '2 tests failed (1 errored): "f.yaml > a" [ws], "f.yaml > b" [https]',
      `the report was recorded at commit def5678, not at the current commit ${SHA}`,
    ]);
  });

  it('refuses a report of another URL under the same name, an empty one, and one when the current commit is unknown', () => {
    expect(reportGateReasons(report({ tenant: { name: 'staging', base_url: 'https://old.example' } }), expected)).toEqual([
      'the report is of "staging" at https://old.example, but that tenant is at https://staging.example',
    ]);
    expect(reportGateReasons(report({ summary: { tests: 0, passed: 0, skipped: 0, failed: 0, errored: 0, not_run: 0 }, results: [] }), expected)).toEqual(['the report holds no test']);
    // Skipped tests checked nothing: a report of skips alone does not let a promotion through.
    expect(reportGateReasons(report({ summary: { tests: 2, passed: 0, skipped: 2, failed: 0, errored: 0, not_run: 0 } }), expected)).toEqual([
      'no test of the report passed: all 2 tests were skipped, so nothing was checked on "staging"',
    ]);
    expect(reportGateReasons(report({ summary: { tests: 2, passed: 1, skipped: 1, failed: 0, errored: 0, not_run: 0 } }), expected)).toEqual([]);
    expect(reportGateReasons(report(), { ...expected, commit: undefined, commitUnknown: 'GITHUB_SHA "zzz" is not a full commit sha, and /w is not in a git checkout' })).toEqual([
      'the current commit is unknown (GITHUB_SHA "zzz" is not a full commit sha, and /w is not in a git checkout): the report cannot be tied to these files',
    ]);
    expect(reportGateReasons(report({ commit: undefined }), expected)).toEqual([
      'the report records no commit (its run had neither a full GITHUB_SHA nor a git commit): run the tests in a git checkout, or with GITHUB_SHA set to the full sha',
    ]);
  });
});

describe('the promotion gate on the tests a run was asked for', () => {
  it('lets the whole flows folder through, however it was named', () => {
    for (const paths of [[], ['flows'], ['.'], ['flows/', 'flows/one.yaml']]) {
      expect(reportGateReasons(report({ selection: { flows_dir: 'flows', paths: paths.map((p) => p.replace(/\/$/, '')) } }), expected), paths.join()).toEqual([]);
    }
  });

  it('names each filter that narrowed the run: PATH arguments, --grep, --transport', () => {
    const narrowed = report({ selection: { flows_dir: 'flows', paths: ['flows/one.yaml', 'flows/two.yaml', 'flows/three.yaml', 'flows/four.yaml'], grep: 'refund', transport: 'ws' } });
    expect(reportGateReasons(narrowed, expected)).toEqual([
      'the run was of flows/one.yaml, flows/two.yaml, flows/three.yaml, and 1 more only, not of the whole flows folder flows/: run roleflow test without PATH arguments',
      'the run was narrowed by --grep refund: run the whole suite',
      'the run was of --transport ws only: run every transport',
    ]);
    expect(reportGateReasons(report({ selection: undefined }), expected)).toEqual([
      'the report does not record which tests its run was asked for (a report of an older roleflow, or a merge of runs asked for different tests): run the whole suite again',
    ]);
  });

  it('says --bail when --bail left tests unrun', () => {
    const bailed = report({ bailed: true, summary: { tests: 2, passed: 0, skipped: 0, failed: 1, errored: 0, not_run: 1 }, results: [{ id: 'f.yaml > a', transport: 'ws', status: 'fail' }, { id: 'f.yaml > b', transport: 'ws', status: 'not_run' }] });
    expect(reportGateReasons(bailed, expected)).toEqual(['1 test of the report did not run (--bail stopped the run after a failure)', '1 test failed: "f.yaml > a" [ws]']);
  });

  it('a path holds the flows folder when it is the folder or one that contains it', () => {
    const cases: [string, string, boolean][] = [
      ['flows', 'flows', true],
      ['.', 'flows', true],
      ['..', 'flows', true],
      ['..', '../flows', true],
      ['..', '../../flows', false],
      ['.', '../flows', false],
      ['test', 'test/flows', true],
      ['test/flows/a.yaml', 'test/flows', false],
      ['flow', 'flows', false],
      ['/repo', '/repo/flows', true],
      ['..', '/repo/flows', false],
      ['other', 'flows', false],
    ];
    for (const [path, folder, covers] of cases) expect(pathCovers(path, folder), `${path} ⊇ ${folder}`).toBe(covers);
  });
});

describe('the tenants of a run over several', () => {
  const config: Config = { ...defaultConfig('roleflow.config.yaml'), tenants: { staging: {} as never, production: {} as never, eu: {} as never } };

  it('--all-tenants: named ones first, then the config order, each once; local only when named', () => {
    expect(selectTenants(config, { named: [], all: true })).toEqual(['staging', 'production', 'eu']);
    expect(selectTenants(config, { named: ['eu', 'local'], all: true })).toEqual(['eu', 'local', 'staging', 'production']);
    expect(selectTenants(config, { named: ['production', 'staging', 'production'], all: false })).toEqual(['production', 'staging']);
  });

  it('refuses an unknown name with a guess, and --all-tenants with none configured', () => {
    expect(() => selectTenants(config, { named: ['stagin'], all: false })).toThrow('unknown tenant "stagin" in roleflow.config.yaml (did you mean "staging"?)');
    expect(() => selectTenants(defaultConfig(), { named: [], all: true })).toThrow('--all-tenants: no tenant is configured under tenants:');
  });
});

describe('tenant failures in a run over several', () => {
  it('a tenant error names its tenant and keeps its code; files, config and usage problems are the whole run\'s', () => {
    const unreachable = new RoleflowError('cannot reach https://p.example: ECONNREFUSED', 'unreachable');
    expect(isTenantFailure(unreachable)).toBe(true);
    const named = tenantError('pro"d', unreachable);
    expect(named.message).toBe('tenant "pro\\"d": cannot reach https://p.example: ECONNREFUSED');
    expect([named.code, named.exitCode]).toEqual(['unreachable', 1]);
    expect(isTenantFailure(new RoleflowError('x', 'unauthorized'))).toBe(true);
    expect(isTenantFailure(new InvalidFilesError([{ file: 'roles/a.md', line: 1, col: 1, message: 'bad' }]))).toBe(false);
    expect(isTenantFailure(new RoleflowError('x', 'config'))).toBe(false);
    expect(isTenantFailure(new RoleflowError('x', 'usage'))).toBe(false);
    expect(isTenantFailure(new Error('a bug'))).toBe(false);
  });
});
