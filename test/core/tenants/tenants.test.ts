import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../../src/core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../../src/core/errors.js';
import { rolesDigest } from '../../../src/core/plan/index.js';
import { countResults } from '../../../src/core/runs/index.js';
import { isTenantFailure, pathCovers, reportGateReasons, selectTenants, tenantError, type GateExpectation, type GateReport } from '../../../src/core/tenants/index.js';

const SHA = 'abc1234abc1234abc1234abc1234abc1234abc12';
const ROLES = rolesDigest([{ name: 'a', description: 'A', content: 'You are A.' }]);

type Result = GateReport['results'][number];
/** A result of `id` with one repeat, which ran unless the result is not_run or skipped. */
const result = (id: string, status: string, transport = 'ws'): Result => ({
  id: `f.yaml > ${id}`,
  transport,
  status,
  repeats: [{ execution: status === 'not_run' || status === 'skip' ? 'not_run' : 'ok' }],
});

/** A report of these results, its summary their count unless `over` gives one. */
function report(over: Partial<GateReport> = {}): GateReport {
  const results = over.results ?? [result('a', 'pass'), result('b', 'pass')];
  return {
    tenant: { name: 'staging', base_url: 'https://staging.example' },
    commit: SHA,
    selection: { flows_dir: 'flows', paths: [] },
    roles_digest: { start: ROLES, end: ROLES },
    work_tree: { state: 'clean' },
    summary: countResults(results),
    ...over,
    results,
  };
}
const expected: GateExpectation = { from: 'staging', fromUrl: 'https://staging.example', flowsDir: 'flows', roles: { digest: ROLES, ignore: [], unmanaged: [] }, commit: SHA };

describe('the promotion gate on a test report', () => {
  it('lets a complete, passing report of the tenant at this commit through, a merged one included', () => {
    expect(reportGateReasons(report(), expected)).toEqual([]);
    expect(reportGateReasons(report({ merged_shards: [{ index: 1, total: 2 }, { index: 2, total: 2 }] }), expected)).toEqual([]);
  });

  it('names every reason at once', () => {
    const bad = report({
      tenant: { name: 'qa', base_url: 'https://qa.example' },
      interrupted: true,
      results: [result('a', 'fail'), result('b', 'error', 'https'), result('c', 'not_run')],
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
    expect(reportGateReasons(report({ results: [] }), expected)).toEqual(['the report holds no test']);
    // Skipped tests checked nothing: a report of skips alone does not let a promotion through.
    expect(reportGateReasons(report({ results: [result('a', 'skip'), result('b', 'skip')] }), expected)).toEqual([
      'no test of the report passed: all 2 tests were skipped, so nothing was checked on "staging"',
    ]);
    expect(reportGateReasons(report({ results: [result('a', 'pass'), result('b', 'skip')] }), expected)).toEqual([]);
    expect(reportGateReasons(report(), { ...expected, commit: undefined, commitUnknown: 'GITHUB_SHA "zzz" is not a full commit sha, and /w is not in a git checkout' })).toEqual([
      'the current commit is unknown (GITHUB_SHA "zzz" is not a full commit sha, and /w is not in a git checkout): the report cannot be tied to these files',
    ]);
    expect(reportGateReasons(report({ commit: undefined }), expected)).toEqual([
      'the report records no commit (its run had neither a full GITHUB_SHA nor a git commit): run the tests in a git checkout, or with GITHUB_SHA set to the full sha',
    ]);
  });
});

describe('the promotion gate on what the tests ran against', () => {
  const OTHER = rolesDigest([{ name: 'a', description: 'A', content: 'You were A.' }]);
  const short = (digest: string) => `${digest.slice(0, 19)}…`;

  it('refuses tests that ran against other Roles than the role files give the tenant, or Roles that changed during the run', () => {
    expect(reportGateReasons(report({ roles_digest: { start: OTHER, end: OTHER } }), expected)).toEqual([
      `the tests ran against other Roles than the role files give "staging" at this commit ("staging" held ${short(OTHER)}, the role files render to ${short(ROLES)}): apply the role files to "staging", then test again`,
    ]);
    expect(reportGateReasons(report({ roles_digest: { start: OTHER, end: ROLES } }), expected)).toEqual([
      `the Roles of "staging" changed while the tests ran (${short(OTHER)} at the start, ${short(ROLES)} at the end): test again while nothing changes them`,
    ]);
    // Roles no role file manages are Roles the tests ran with: the reason says how to be rid of them.
    const unmanaged = { ...expected, roles: { ...expected.roles, unmanaged: ['x', 'y', 'z', 'w'] } };
    expect(reportGateReasons(report({ roles_digest: { start: OTHER, end: OTHER } }), unmanaged)[0]).toMatch(
      /then test again; "staging" also holds 4 Roles that no role file manages \("x", "y", "z", and 1 more\): delete them \(apply --prune\) or match them with roles\.ignore$/,
    );
    expect(reportGateReasons(report({ roles_digest: undefined }), expected)).toEqual([
      'the report does not record the Roles "staging" held when its tests ran (a report of an older roleflow, a run that could not list them or was interrupted, or a merge of runs that saw different Roles): run the tests again',
    ]);
    const ignoring = { ...expected, roles: { ...expected.roles, ignore: ['vendor-*'] } };
    expect(reportGateReasons(report(), ignoring)).toEqual([
      'the report\'s Roles digest leaves out the Roles its run\'s roles.ignore matched (none), not those of the config here ("vendor-*"): run the tests with this config',
    ]);
    expect(reportGateReasons(report({ roles_digest: { start: ROLES, end: ROLES, ignore: ['vendor-*'] } }), ignoring)).toEqual([]);
  });

  it('refuses a report made on a dirty work tree, or one that cannot tell', () => {
    const dirty = report({ work_tree: { state: 'dirty', changed: ['flows/a.yaml', 'notes.txt', 'roles/b.md', 'x'] } });
    expect(reportGateReasons(dirty, expected)).toEqual([
      "the tests ran on a work tree with uncommitted changes (flows/a.yaml, notes.txt, roles/b.md, …): the report is not of the commit's files; commit or discard the changes, and test again",
    ]);
    expect(reportGateReasons(report({ work_tree: { state: 'unknown' } }), expected)).toEqual([
      'the report cannot tell whether the files its tests ran with were the commit (they ran outside a git checkout, or git could not tell): run them in a git checkout of the commit',
    ]);
    expect(reportGateReasons(report({ work_tree: undefined }), expected)).toEqual([
      'the report does not record whether its work tree was the commit (a report of an older roleflow, or a merge of reports some of which do not): run the tests again',
    ]);
  });

  it('counts the results again: an edited summary is refused, and the results are judged, not the summary', () => {
    const results = [result('a', 'pass'), result('b', 'fail')];
    const edited = report({ results, summary: { ...countResults(results), passed: 2, failed: 0 } });
    expect(reportGateReasons(edited, expected)).toEqual([
      '1 test failed: "f.yaml > b" [ws]',
      "the report's summary does not match its results (it says passed 2, failed 0; its results count passed 1, failed 1): it was edited; promote a report as roleflow wrote it",
    ]);
    // A summary of a version that did not count not_run is read as none.
    const { not_run: _n, ...older } = countResults(report().results);
    expect(reportGateReasons(report({ summary: older }), expected)).toEqual([]);
  });
});

describe('the promotion gate on the tests a run was asked for', () => {
  it('lets the whole flows folder through, however it was named', () => {
    for (const paths of [[], ['flows'], ['.'], ['flows/', 'flows/one.yaml']]) {
      expect(reportGateReasons(report({ selection: { flows_dir: 'flows', paths: paths.map((p) => p.replace(/\/$/, '')) } }), expected), paths.join()).toEqual([]);
    }
  });

  it('names each filter that narrowed the run: another flows folder, PATH arguments, --grep, --transport', () => {
    const narrowed = report({ selection: { flows_dir: 'flows', paths: ['flows/one.yaml', 'flows/two.yaml', 'flows/three.yaml', 'flows/four.yaml'], grep: 'refund', transport: 'ws' } });
    expect(reportGateReasons(narrowed, expected)).toEqual([
      'the run was of flows/one.yaml, flows/two.yaml, flows/three.yaml, and 1 more only, not of the whole flows folder flows/: run roleflow test without PATH arguments',
      'the run was narrowed by --grep refund: run the whole suite',
      'the run was of --transport ws only: run every transport',
    ]);
    expect(reportGateReasons(report({ selection: { flows_dir: 'easy-flows', paths: [] } }), expected)).toEqual([
      "the run was of the flows folder easy-flows/, not of the config's flows/ (another --config, or another working folder): run the config's whole suite from here",
    ]);
    expect(reportGateReasons(report({ selection: undefined }), expected)).toEqual([
      'the report does not record which tests its run was asked for (a report of an older roleflow, or a merge of runs asked for different tests): run the whole suite again',
    ]);
  });

  it('says --bail when --bail left tests unrun', () => {
    const bailed = report({ bailed: true, results: [result('a', 'fail'), result('b', 'not_run')] });
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
