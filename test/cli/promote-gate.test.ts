import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { binPath } from '../helpers/cli.js';
import type { RunReport } from '../../src/report/model.js';
import { requestCount, roleText, tenantState, TOKEN } from './roles-kit.js';
import { commitAll, twoTenants, type TwoTenants } from './tenants-kit.js';

// Each way of making `promote` accept a report that does not stand for the Roles being promoted,
// tried as a user would: a git repository, staging and production on 127.0.0.1, real runs.

const echo = (name: string, word: string) =>
  `flow: echo\ntransport: ws\ntests:\n  - name: ${name}\n    inputs: { word: hi }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].word", equals: ${word} }\n`;
const FILES = { 'roles/a.md': roleText('a', 'first', 'You are A.'), 'flows/echo.yaml': echo('echoes', 'hi') };
const REFUSED = 'error: promotion from staging to production refused; nothing was sent to production:\n';

/** The project committed, and staging holding the role files' Roles. */
async function applied(files: Record<string, string> = FILES, opts: Parameters<typeof twoTenants>[1] = {}): Promise<TwoTenants> {
  const t = await twoTenants(files, opts);
  await commitAll(t.p);
  expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
  return t;
}

async function testStaging(t: TwoTenants, args: string[] = []): Promise<RunReport> {
  const run = await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=report.json', ...args]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return JSON.parse(await t.p.read('report.json')) as RunReport;
}

const promote = (t: TwoTenants, report = 'report.json') => t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', report, '--auto-approve']);

/** Refused for these reasons alone (or as the pattern says), and production was not even asked. */
async function refusedFor(t: TwoTenants, reasons: string | string[] | RegExp, report = 'report.json'): Promise<void> {
  const mark = requestCount(t.production);
  const r = await promote(t, report);
  expect(r.code, r.stderr).toBe(4);
  if (reasons instanceof RegExp) expect(r.stderr).toMatch(reasons);
  else expect(r.stderr).toBe(`${REFUSED}${[reasons].flat().map((reason) => `  - ${reason}\n`).join('')}`);
  expect(requestCount(t.production)).toBe(mark);
  expect(tenantState(t.production)).toEqual([]);
}

describe('promote refuses tests that did not run against the Roles promoted', () => {
  it('tests run on staging before the new Roles were applied there (same commit, all passing) are refused; tested again, they promote', async () => {
    const t = await applied();
    await t.p.write('roles/b.md', roleText('b', 'second', 'You are B.'));
    await commitAll(t.p);
    const before = await testStaging(t);
    expect(before.summary).toMatchObject({ passed: 1, failed: 0 });
    // Now staging gets the new Role: it matches the files, the report is of this commit and passed, yet its tests never saw b.
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    const held = before.roles_digest!.start.slice(0, 19);
    await refusedFor(
      t,
      new RegExp(`^${REFUSED}  - the tests ran against other Roles than the role files give "staging" at this commit \\("staging" held ${held}…, the role files render to sha256:[0-9a-f]{12}…\\): apply the role files to "staging", then test again\\n$`),
    );
    const after = await testStaging(t);
    expect(after.roles_digest!.start).not.toBe(before.roles_digest!.start);
    const r = await promote(t);
    expect(r.code, r.stderr).toBe(0);
    expect(tenantState(t.production)).toEqual(['a: first / You are A.', 'b: second / You are B.']);
  });

  it('a Role on staging that no role file manages was part of what the tests ran against: refused, saying how to be rid of it', async () => {
    const t = await applied(FILES, { stagingRoles: [{ name: 'stray', description: 'made by hand', content: 'You say anything.' }] });
    await testStaging(t);
    await refusedFor(t, /the role files render to sha256:[0-9a-f]{12}…\): apply the role files to "staging", then test again; "staging" also holds 1 Role that no role file manages \("stray"\): delete it \(apply --prune\) or match it with roles\.ignore\n$/);
    // Left to roles.ignore (committed), it is out of both digests: the report stands for the Roles promoted.
    await t.p.write('roleflow.config.yaml', `${await t.p.read('roleflow.config.yaml')}roles: { ignore: [stray] }\n`);
    await commitAll(t.p);
    expect((await testStaging(t)).roles_digest?.ignore).toEqual(['stray']);
    expect((await promote(t)).code).toBe(0);
    expect(tenantState(t.production)).toEqual(['a: first / You are A.']);
  });
});

describe('promote refuses a report of another suite than the config\'s', () => {
  it('tests run with another config, whose flows folder holds only the easy test, are refused', async () => {
    const t = await applied({ ...FILES, 'flows/hard.yaml': echo('hard', 'hi'), 'easy/echo.yaml': echo('echoes', 'hi') });
    const config = await t.p.read('roleflow.config.yaml');
    await t.p.write('easy.config.yaml', `${config}flows: { dir: easy }\n`);
    await commitAll(t.p);
    const report = await testStaging(t, ['--config', 'easy.config.yaml']);
    expect(report.selection).toEqual({ flows_dir: 'easy', paths: [] });
    await refusedFor(t, "the run was of the flows folder easy/, not of the config's flows/ (another --config, or another working folder): run the config's whole suite from here");
  });
});

describe('promote refuses a report made on a dirty work tree', () => {
  it('a failing test edited to pass, tested, restored: the report says dirty and names the file', async () => {
    const t = await applied({ ...FILES, 'flows/strict.yaml': echo('strict', 'bye') });
    const failing = await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=report.json']);
    expect(failing.code).toBe(3);
    await t.p.write('flows/strict.yaml', echo('strict', 'hi'));
    const report = await testStaging(t);
    expect(report.work_tree).toEqual({ state: 'dirty', changed: ['flows/strict.yaml'] });
    await promisify(execFile)('git', ['checkout', '--', 'flows/strict.yaml'], { cwd: t.p.dir });
    await refusedFor(t, "the tests ran on a work tree with uncommitted changes (flows/strict.yaml): the report is not of the commit's files; commit or discard the changes, and test again");
  });

  it('an untracked file git does not ignore makes it dirty; ignored files, .roleflow/ and the report written to stdout do not', async () => {
    const t = await applied();
    await t.p.write('notes.txt', 'a new file, not committed');
    expect((await testStaging(t)).work_tree).toEqual({ state: 'dirty', changed: ['notes.txt'] });
    await rm(join(t.p.dir, 'notes.txt'));
    await t.p.write('.roleflow/state.json', '{}');
    await t.p.write('sub/.roleflow/x', 'x');
    await t.p.write('out.json', 'ignored by .gitignore');
    // The built CLI as a process, its stdout redirected to a file in the checkout the shell made first.
    const stdout = join(t.p.dir, 'stdout-report.txt');
    const result = await new Promise<number | null>((resolve) => {
      const child = execFile('sh', ['-c', `"$0" "$1" test --tenant staging --json > "$2"`, process.execPath, binPath, stdout], {
        cwd: t.p.dir,
        env: { ...process.env, ROLEFLOW_TOKEN_STAGING: TOKEN, ROLEFLOW_TOKEN_PRODUCTION: TOKEN },
      });
      child.on('exit', resolve);
    });
    expect(result).toBe(0);
    const report = JSON.parse(await t.p.read('stdout-report.txt')) as RunReport;
    expect(report.work_tree).toEqual({ state: 'clean' });
    expect((await promote(t, 'stdout-report.txt')).code).toBe(0);
  });
});

describe('the work tree over several tenants', () => {
  it('the reports a run over several tenants writes for one do not make the next one\'s work tree dirty, in a new folder too', async () => {
    const t = await applied();
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'json=reports/run.json', '--reporter', 'junit=reports/junit.xml']);
    expect(r.code, r.stderr).toBe(0);
    for (const tenant of ['staging', 'production']) {
      const report = JSON.parse(await t.p.read(`reports/run.${tenant}.json`)) as RunReport;
      expect(report.work_tree, tenant).toEqual({ state: 'clean' });
    }
    // Files in that folder that are not this run's (the last run's JUnit reports, a note) are another matter.
    await t.p.write('reports/notes.txt', 'not a report');
    const again = await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=reports/again.json']);
    expect(again.code).toBe(0);
    expect((JSON.parse(await t.p.read('reports/again.json')) as RunReport).work_tree).toEqual({ state: 'dirty', changed: ['reports/'] });
  });
});

describe('promote refuses a report whose summary is not the count of its results', () => {
  it('an edited summary is refused, and the results are judged, not the summary', async () => {
    const t = await applied({ ...FILES, 'flows/strict.yaml': echo('strict', 'bye') });
    expect((await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=report.json'])).code).toBe(3);
    const report = JSON.parse(await t.p.read('report.json')) as RunReport;
    expect(report.summary).toMatchObject({ tests: 2, passed: 1, failed: 1 });
    await writeFile(join(t.p.dir, 'edited.json'), JSON.stringify({ ...report, summary: { ...report.summary, passed: 2, failed: 0 } }));
    await refusedFor(
      t,
      [
        '1 test failed: "flows/strict.yaml > strict" [ws]',
        "the report's summary does not match its results (it says passed 2, failed 0; its results count passed 1, failed 1): it was edited; promote a report as roleflow wrote it",
      ],
      'edited.json',
    );
    // Passing results under a summary that claims more than they hold: refused for the summary alone.
    await t.p.write('flows/strict.yaml', echo('strict', 'hi'));
    await commitAll(t.p);
    const passing = await testStaging(t);
    await writeFile(join(t.p.dir, 'inflated.json'), JSON.stringify({ ...passing, summary: { ...passing.summary, tests: 20, passed: 20 } }));
    await refusedFor(
      t,
      "the report's summary does not match its results (it says tests 20, passed 20; its results count tests 2, passed 2): it was edited; promote a report as roleflow wrote it",
      'inflated.json',
    );
    expect((await promote(t)).code).toBe(0);
  });
});
