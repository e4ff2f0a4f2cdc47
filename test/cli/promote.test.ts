import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import type { RunReport } from '../../src/report/model.js';
import { mutations, requestCount, roleText, runOnTerminal, tenantState, TOKEN } from './roles-kit.js';
import { outputProblems } from '../helpers/output-schemas.js';
import { commitAll, noToken, twoTenants, type TwoTenants } from './tenants-kit.js';

const OTHER_SHA = 'fedcba9876543210fedcba9876543210fedcba98';

const FILES = {
  'roles/a.md': roleText('a', 'first', 'You are A.'),
  'flows/echo.yaml': `flow: echo\ntransport: ws\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].word", equals: hi }\n`,
};

/**
 * The project committed in git (HEAD `head`); staging holds the role files' Roles and passed its
 * tests there, on the clean checkout: report.json is its report.
 */
async function tested(): Promise<TwoTenants & { report: RunReport; head: string }> {
  const t = await twoTenants(FILES);
  const head = await commitAll(t.p);
  expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
  return { ...t, head, report: await testStaging(t, 'report.json') };
}

/** The tests run on staging (in CI no GITHUB_SHA but HEAD's, here none): the report they wrote to `file`. */
async function testStaging(t: TwoTenants, file: string, extra: string[] = []): Promise<RunReport> {
  const run = await t.cli(['test', '--tenant', 'staging', '--reporter', `json=${file}`, ...extra]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return JSON.parse(await t.p.read(file)) as RunReport;
}

function promote(t: TwoTenants, report: string, extra: string[] = [], env: Record<string, string> = {}) {
  return t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', report, ...extra], env);
}

describe('roleflow promote', () => {
  it('promotes with a passing report of the current commit: production gets the Roles staging has', async () => {
    const t = await tested();
    // The report records what its tests ran against: the commit, a clean work tree, the Roles of staging throughout.
    expect(t.report).toMatchObject({ commit: t.head, work_tree: { state: 'clean' }, selection: { flows_dir: 'flows', paths: [] } });
    expect(t.report.roles_digest?.start).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(t.report.roles_digest?.end).toBe(t.report.roles_digest?.start);
    const r = await promote(t, 'report.json', ['--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Promoting from staging to production: staging matches the role files, and report.json passed there at this commit.');
    expect(r.stdout).toContain('Apply complete: 1 created, 0 updated, 0 deleted.');
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);
    expect(noToken(r)).toBe(true);
    expect(r.stderr).not.toMatch(/uncommitted|git status|warning/);
    // A new Role, committed, applied to staging and tested there. Without --auto-approve and
    // without a terminal it refuses, as apply does; with --out it saves the plan instead.
    await t.p.write('roles/b.md', roleText('b', 'second', 'You are B.'));
    await commitAll(t.p);
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    await testStaging(t, 'report.json');
    const offTerminal = await promote(t, 'report.json');
    expect(offTerminal.stderr).toContain(
      'error: refusing to apply without confirmation: stdin is not a terminal. Add --auto-approve, or save a plan for review and apply it: roleflow promote --from staging --to production --report report.json --out plan.json && roleflow apply plan.json\n',
    );
    const saved = await promote(t, 'report.json', ['--out', 'production.json']);
    expect(saved.code).toBe(0);
    expect(JSON.parse(await t.p.read('production.json'))).toMatchObject({ tenant: { name: 'production' }, summary: { create: 1 } });
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);
    // Once carried out, the saved plan is stale; the advice keeps the gate: promote again, not plan.
    expect((await t.cli(['apply', 'production.json'])).code).toBe(0);
    const stale = await t.cli(['apply', 'production.json']);
    expect(stale.code).toBe(4);
    expect(stale.stderr).toContain('if roleflow promote made this one, run roleflow promote again');
  });

  it('asks on a terminal as apply does: only yes promotes', async () => {
    const t = await tested();
    const env = { ROLEFLOW_TOKEN_STAGING: TOKEN, ROLEFLOW_TOKEN_PRODUCTION: TOKEN };
    const args = ['promote', '--from', 'staging', '--to', 'production', '--report', 'report.json'];
    const no = await runOnTerminal(t.p, undefined, args, { answer: 'no', env });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('Apply cancelled: nothing was changed.');
    expect(mutations(t.production)).toEqual([]);
    const yes = await runOnTerminal(t.p, undefined, args, { answer: 'yes', env });
    expect(yes.code).toBe(0);
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);
  });

  it('refuses for each reason with exit 4, naming it, and sends nothing to the tenant promoted to', async () => {
    const t = await tested();
    const variants: [string, (r: RunReport) => RunReport, RegExp][] = [
      ['another-tenant.json', (r) => ({ ...r, tenant: { ...r.tenant, name: 'qa' } }), /the report is of tenant "qa", not of "staging"/],
      ['partial.json', (r) => ({ ...r, merged_shards: [{ index: 1, total: 2 }], missing_shards: [{ index: 2, total: 2 }] }), /the report is incomplete: shard 2\/2 missing/],
      ['one-shard.json', (r) => ({ ...r, shard: { index: 1, total: 3 } }), /the report is of shard 1\/3 only/],
      [
        'failed.json',
        (r) => ({ ...r, summary: { ...r.summary, passed: 0, failed: 1 }, results: r.results.map((x) => ({ ...x, status: 'fail' as const })) }),
        /1 test failed: "flows\/echo\.yaml > echoes" \[ws\]/,
      ],
      ['other-commit.json', (r) => ({ ...r, commit: OTHER_SHA }), new RegExp(`recorded at commit ${OTHER_SHA}, not at the current commit ${t.head}`)],
      ['no-commit.json', ({ commit: _c, ...r }) => r, /the report records no commit \(its run had neither a full GITHUB_SHA nor a git commit\)/],
    ];
    const mark = requestCount(t.production);
    const stagingMark = requestCount(t.staging);
    for (const [file, change, reason] of variants) {
      await t.p.write(file, JSON.stringify(change(t.report)));
      const r = await promote(t, file, ['--auto-approve']);
      expect(r.code, file).toBe(4);
      expect(r.stderr, file).toMatch(/^error: promotion from staging to production refused; nothing was sent to production:\n/);
      expect(r.stderr, file).toMatch(reason);
      expect(noToken(r)).toBe(true);
    }
    // Staging drifts from the files: refused too, with the report's reasons beside it.
    await t.p.write('roles/b.md', roleText('b', 'second', 'You are B.'));
    const drift = await promote(t, 'no-commit.json', ['--auto-approve']);
    expect(drift.code).toBe(4);
    expect(drift.stderr).toContain('  - tenant "staging" does not match the role files (Plan: 1 to create, 0 to update, 0 to delete.): apply them there and test again\n');
    expect(drift.stderr).toContain('  - the report records no commit');
    expect(requestCount(t.production)).toBe(mark);
    // promote only reads the tenant promoted from.
    expect(mutations(t.staging, stagingMark)).toEqual([]);
  });

  it('refuses an unreadable report and promotion to the same tenant; the commit is a full GITHUB_SHA, else git rev-parse HEAD', async () => {
    const t = await tested();
    const { head } = t;
    const missing = await promote(t, 'nope.json', ['--auto-approve']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/nope\.json is not a JSON test report that can be read/);
    expect((await t.cli(['promote', '--from', 'staging', '--to', 'staging', '--report', 'report.json'])).code).toBe(1);
    // --out naming the report file is bad usage before anything runs: the report stays as it was.
    const reportText = await t.p.read('report.json');
    const same = await promote(t, 'report.json', ['--out', './report.json']);
    expect(same.code).toBe(1);
    expect(same.stderr).toBe('error: --out ./report.json is the --report file: the plan would overwrite the report; save the plan to another file\n');
    expect(await t.p.read('report.json')).toBe(reportText);

    // An abbreviated GITHUB_SHA is passed over with a warning, for HEAD, by test and promote alike.
    const run = await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=git-report.json'], { GITHUB_SHA: head.slice(0, 7) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: GITHUB_SHA "${head.slice(0, 7)}" is not a full commit sha (40 or 64 hex digits): using git rev-parse HEAD instead\n`);
    expect((JSON.parse(await t.p.read('git-report.json')) as RunReport).commit).toBe(head);
    const r = await promote(t, 'git-report.json', ['--auto-approve'], { GITHUB_SHA: 'zzz' });
    expect(r.stderr).toContain('warning: GITHUB_SHA "zzz" is not a full commit sha (40 or 64 hex digits): using git rev-parse HEAD instead\n');
    expect(r.code).toBe(0);
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);

    // In a checkout, a full GITHUB_SHA that is not HEAD: test records it with a warning, and promote refuses it (the files here are HEAD's).
    const notHead = `GITHUB_SHA ${OTHER_SHA} is not the checked-out commit ${head}: the files here are ${head}'s`;
    const other = await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=other-report.json'], { GITHUB_SHA: OTHER_SHA });
    expect(other.code).toBe(0);
    expect(other.stderr).toContain(`warning: ${notHead}\n`);
    expect((JSON.parse(await t.p.read('other-report.json')) as RunReport).commit).toBe(OTHER_SHA);
    const mismatch = await promote(t, 'other-report.json', ['--auto-approve'], { GITHUB_SHA: OTHER_SHA });
    expect(mismatch.code).toBe(4);
    expect(mismatch.stderr).toBe(`error: promotion from staging to production refused; nothing was sent to production:\n  - ${notHead}\n`);

    // Uncommitted changes under the role files, the flow tests or the config: the tree is not the commit.
    await t.p.write('.gitignore', `${await t.p.read('.gitignore')}roles/*.tmp\n`);
    await t.p.write('roles/scratch.tmp', 'ignored');
    await t.p.write('flows/new.yaml', FILES['flows/echo.yaml']);
    await t.p.write('roleflow.config.yaml', `${await t.p.read('roleflow.config.yaml')}# staged\n`);
    await promisify(execFile)('git', ['add', 'roleflow.config.yaml'], { cwd: t.p.dir });
    const mark = requestCount(t.production);
    const dirty = await t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', 'git-report.json', '--auto-approve']);
    expect(dirty.code).toBe(4);
    expect(dirty.stderr).toContain('  - uncommitted changes to flows/new.yaml, roleflow.config.yaml (git status): the files here are not the commit the report speaks for; commit them, test that commit, and promote it\n');
    expect(dirty.stderr).not.toMatch(/scratch|report\.json,/);
    expect(requestCount(t.production)).toBe(mark);
  });

  it('outside a git checkout: without a full GITHUB_SHA the commit is unknown, and a report cannot tell whether its files were the commit', async () => {
    const t = await twoTenants(FILES);
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const report = await testStaging(t, 'report.json', []);
    expect([report.commit, report.work_tree]).toEqual([undefined, { state: 'unknown' }]);
    expect((await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=report.json'], { GITHUB_SHA: sha })).code).toBe(0);
    const bad = await promote(t, 'report.json', ['--auto-approve'], { GITHUB_SHA: 'zzz' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('warning: GITHUB_SHA "zzz" is not a full commit sha (40 or 64 hex digits): using git rev-parse HEAD instead\n');
    expect(bad.stderr).toContain(`  - the current commit is unknown (GITHUB_SHA "zzz" is not a full commit sha, and ${t.p.dir} is not in a git checkout): the report cannot be tied to these files\n`);
    // With GITHUB_SHA naming the commit on both sides, the files the tests ran with are still unknown: refused for that alone.
    const unknown = await promote(t, 'report.json', ['--auto-approve'], { GITHUB_SHA: sha });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toBe(
      'error: promotion from staging to production refused; nothing was sent to production:\n  - the report cannot tell whether the files its tests ran with were the commit (they ran outside a git checkout, or git could not tell): run them in a git checkout of the commit\n',
    );
    expect(tenantState(t.production)).toEqual([]);
  });

  it('in a git checkout, refuses git-ignored files roleflow reads and a config that is ignored or outside the checkout, naming each', async () => {
    const t = await tested();
    const git = promisify(execFile);
    const opts = { cwd: t.p.dir };
    await t.p.write('.gitignore', `${await t.p.read('.gitignore')}out*\n*.local.yaml\n`);
    await git('git', ['add', '.gitignore'], opts);
    await git('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'x'], opts);
    expect((await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=git-report.json'])).code).toBe(0);
    // Files git ignores, so no commit holds them: a role file and a flow test roleflow reads, and files it does not read.
    await t.p.write('roles/out-sneaky.md', roleText('sneaky', 'sneaky', 'You are not in any commit.'));
    await t.p.write('roles/out-notes.txt', 'not read');
    await t.p.write('flows/out.yaml', FILES['flows/echo.yaml']);
    await t.p.write('flows/out.txt', 'not read');
    await t.p.write('prod.local.yaml', await t.p.read('roleflow.config.yaml'));
    // Staging matches the role files, the ignored one included: only the ignored files stand in the way.
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    const args = ['promote', '--from', 'staging', '--to', 'production', '--report', 'git-report.json', '--auto-approve'];
    const r = await t.cli([...args, '--config', 'prod.local.yaml']);
    expect(r.code).toBe(4);
    const ignored = (file: string) => `  - ${file} is ignored by git, so no commit holds it: roleflow reads it; stop ignoring it and commit it (or remove it), test that commit, and promote it\n`;
    expect(r.stderr).toContain(ignored('roles/out-sneaky.md'));
    expect(r.stderr).toContain(ignored('flows/out.yaml'));
    expect(r.stderr).toContain(ignored('prod.local.yaml'));
    expect(r.stderr).not.toMatch(/out-notes|out\.txt|does not match/);
    expect(tenantState(t.production)).toEqual([]);

    // A config outside the checkout: no commit holds it either.
    const outside = await tempDir();
    onTestFinished(outside.cleanup);
    const config = join(outside.dir, 'roleflow.config.yaml');
    const text = await t.p.read('roleflow.config.yaml');
    await writeFile(config, `${text}roles: { dir: ${JSON.stringify(join(t.p.dir, 'roles'))} }\nflows: { dir: ${JSON.stringify(join(t.p.dir, 'flows'))} }\n`);
    const away = await t.cli([...args, '--config', config]);
    expect(away.code).toBe(4);
    expect(away.stderr).toContain(`  - ${config} is outside the git checkout, so no commit holds it: keep the role files, flow tests and config in the repository\n`);
    expect(tenantState(t.production)).toEqual([]);

    // Ignored files gone: the checkout is the commit, and the promotion goes on.
    await rm(join(t.p.dir, 'roles/out-sneaky.md'));
    await rm(join(t.p.dir, 'flows/out.yaml'));
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve', '--prune'])).code).toBe(0);
    const ok = await t.cli(args);
    expect(ok.stderr).not.toMatch(/ignored|outside|refused/);
    expect(ok.code).toBe(0);
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);
  });

  it('refuses the embedded tenant as the tenant promoted from: its tests cannot gate a real one', async () => {
    const t = await tested();
    const r = await t.cli(['promote', '--from', 'local', '--to', 'production', '--report', 'report.json', '--auto-approve', '--json']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'error: promotion from local to production refused; nothing was sent to production:\n  - tenant "local" is the embedded tenant, a stand-in started in-process: its tests cannot gate tenant "production" (promote from a configured tenant)\n',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ tenant: { name: 'production' }, status: 'refused', reasons: [expect.stringContaining('is the embedded tenant')] });
    expect(outputProblems('apply', JSON.parse(r.stdout))).toBe('');
    expect(tenantState(t.production)).toEqual([]);
  });
});

describe('roleflow promote and the tests the run was asked for', () => {
  it('refuses a report of a run narrowed by PATH arguments, --grep or --transport, naming the filter; a complete merge of shards passes', async () => {
    const t = await twoTenants({ ...FILES, 'flows/more.yaml': FILES['flows/echo.yaml'].replace('name: echoes', 'name: echoes again') });
    await commitAll(t.p);
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    const runs: [string[], string][] = [
      [['flows/echo.yaml'], '  - the run was of flows/echo.yaml only, not of the whole flows folder flows/: run roleflow test without PATH arguments\n'],
      [['--grep', 'again'], '  - the run was narrowed by --grep again: run the whole suite\n'],
      [['--transport', 'ws'], '  - the run was of --transport ws only: run every transport\n'],
    ];
    const mark = requestCount(t.production);
    for (const [args, reason] of runs) {
      expect((await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=narrow.json', ...args])).code).toBe(0);
      const report = JSON.parse(await t.p.read('narrow.json')) as RunReport;
      expect(report.summary.failed, args.join(' ')).toBe(0);
      const r = await promote(t, 'narrow.json', ['--auto-approve']);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr).toContain(reason);
      expect(noToken(r)).toBe(true);
    }
    // --bail that left tests unrun after a failure: named as such.
    await t.p.write('flows/0-fails.yaml', 'flow: echo\ntransport: https\ntests:\n  - name: fails first\n    inputs: { word: hi }\n    until: { steps: 1 }\n    expect:\n      steps: { count: 5 }\n');
    const bail = await t.cli(['test', '--tenant', 'staging', '--bail', '--concurrency', '1', '--reporter', 'console', '--reporter', 'json=bail.json']);
    expect(bail.code, bail.stdout + bail.stderr).toBe(3);
    const bailed = await promote(t, 'bail.json', ['--auto-approve']);
    expect(bailed.code).toBe(4);
    expect(bailed.stderr).toMatch(/^ {2}- 2 tests of the report did not run \(--bail stopped the run after a failure\)$/m);
    await rm(join(t.p.dir, 'flows/0-fails.yaml'));
    expect(requestCount(t.production)).toBe(mark);
    // The flows folder named, and the shards of a whole run merged, are the whole suite.
    for (const i of [1, 2]) expect((await t.cli(['test', 'flows', '--tenant', 'staging', '--shard', `${i}/2`, '--reporter', `json=shard-${i}.json`])).code).toBe(0);
    expect((await t.cli(['report', 'merge', 'shard-1.json', 'shard-2.json', '--out', 'merged.json'])).code).toBe(0);
    expect((JSON.parse(await t.p.read('merged.json')) as RunReport).selection).toEqual({ flows_dir: 'flows', paths: ['flows'] });
    const merged = await promote(t, 'merged.json', ['--auto-approve']);
    expect(merged.stderr).toContain('merged.json passed there at this commit');
    expect(merged.code).toBe(0);
    // A merge of runs asked for different tests records no selection, and does not pass.
    expect((await t.cli(['test', '--tenant', 'staging', '--shard', '1/2', '--grep', 'echo', '--reporter', 'json=grep-1.json'])).code).toBe(0);
    const mixing = await t.cli(['report', 'merge', 'grep-1.json', 'shard-2.json', '--out', 'mixed.json']);
    expect(mixing.code).toBe(0);
    expect(mixing.stderr).toContain(
      'warning: the runs were asked for different tests (PATH arguments, --grep, --transport, tags, a rerun, or a flows folder): the merged report records no selection, and roleflow promote refuses it\n',
    );
    const mixed = await promote(t, 'mixed.json', ['--auto-approve']);
    expect(mixed.code).toBe(4);
    expect(mixed.stderr).toContain('the report does not record which tests its run was asked for');
  });
});

describe('roleflow promote typed without what it needs', () => {
  it('names the missing options in one line (exit 1, bad usage), and --help shows them on the usage line', async () => {
    const t = await twoTenants(FILES);
    expect(await t.cli(['promote'])).toEqual({ code: 1, stdout: '', stderr: 'error: promote needs --from NAME, --to NAME and --report FILE (see roleflow promote --help)\n' });
    const r = await t.cli(['promote', '--from', 'staging', '--to=production']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: promote needs --report FILE (see roleflow promote --help)\n' });
    const help = await t.cli(['promote', '--help']);
    expect(help.stdout).toContain('\n$ roleflow promote --from NAME --to NAME --report FILE\n');
    expect((await t.cli(['help', 'promote'])).stdout).toBe(help.stdout);
  });
});

describe('roleflow test over several tenants', () => {
  it('runs the tests against each tenant in turn, one JSON report per tenant with the tenant in its name', async () => {
    const t = await twoTenants(FILES);
    const SHA = '0123456789abcdef0123456789abcdef01234567';
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'console', '--reporter', 'json=out/report.json'], { GITHUB_SHA: SHA });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^=== tenant staging ===\n[\s\S]*=== tenant production ===\n[\s\S]*Tenants: staging passed; production passed\.\n$/);
    const staging = JSON.parse(await t.p.read('out/report.staging.json')) as RunReport;
    const production = JSON.parse(await t.p.read('out/report.production.json')) as RunReport;
    expect([staging.tenant.name, staging.commit, production.tenant.name]).toEqual(['staging', SHA, 'production']);
    expect(noToken(r)).toBe(true);
    const stdout = await t.cli(['test', '--all-tenants', '--json']);
    expect(stdout).toMatchObject({ code: 1, stderr: expect.stringContaining('--reporter json=- (or --json) writes one run: with several tenants give it a file') });
  });
});

describe('promote: errors name their tenant', () => {
  it('an unreachable --from and a missing token of --to each name the tenant; nothing is sent to production', async () => {
    const t = await tested();
    const stagingMark = requestCount(t.staging);
    const noTokenTo = await t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', 'report.json', '--auto-approve'], { ROLEFLOW_TOKEN_PRODUCTION: '' });
    expect(noTokenTo).toMatchObject({ code: 1, stderr: 'error: tenant "production": no token; set the environment variable ROLEFLOW_TOKEN_PRODUCTION\n' });
    // Both tenants' tokens are known before anything is sent: staging was not even listed.
    expect(requestCount(t.staging)).toBe(stagingMark);
    await t.staging.close();
    const unreachable = await promote(t, 'report.json', ['--auto-approve']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^error: tenant "staging": cannot reach http:\/\/127\.0\.0\.1:\d+/m);
    expect(mutations(t.production)).toEqual([]);
    expect(noToken(unreachable)).toBe(true);
  });
});
