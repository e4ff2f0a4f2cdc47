import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { junitXsdProblems } from '../helpers/junit-xsd.js';
import { findAll, parseXml } from '../report/xml.js';
import { requestCount, roleText } from './roles-kit.js';
import { noToken, twoTenants } from './tenants-kit.js';

/** One test that fails on every tenant: the echo flow logs one step, the test expects five. */
const FILES = {
  'roles/a.md': roleText('a', 'first', 'You are A.'),
  'flows/echo.yaml': `flow: echo\ntransport: https\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    until: { steps: 1 }\n    expect:\n      steps: { count: 5 }\n`,
};

describe('test over several tenants: what its reporters say', () => {
  it('reports in files only: no empty tenant headings, and each file written is announced on stderr', async () => {
    const t = await twoTenants(FILES);
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'json=r.json', '--reporter', 'junit=j.xml']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('Tenants: staging had failed tests; production had failed tests.\n');
    expect(r.stderr).toBe('tenant staging: wrote r.staging.json, j.staging.xml\ntenant production: wrote r.production.json, j.production.xml\n');
    expect(JSON.parse(await t.p.read('r.production.json'))).toMatchObject({ tenant: { name: 'production' } });
    // Two tenants' JUnit files never share a suite: a viewer reading both shows every case.
    for (const tenant of ['staging', 'production']) {
      const xml = await t.p.read(`j.${tenant}.xml`);
      expect(junitXsdProblems(xml)).toBe('');
      expect(findAll(parseXml(xml), 'testsuite').map((x) => x.attrs['name'])).toEqual([`${tenant}: flows/echo.yaml`]);
    }
    // With the console on stdout, each tenant's section keeps its heading.
    const both = await t.cli(['test', '--all-tenants', '--reporter', 'console', '--reporter', 'json=r.json']);
    expect(both.stdout).toMatch(/^=== tenant staging ===\n/);
    expect(both.stdout).toContain('\n=== tenant production ===\n');
    expect(noToken(r) && noToken(both)).toBe(true);
  });

  it('a report file that exists and is not a regular file (/dev/null) is written as it is for every tenant', async () => {
    const t = await twoTenants(FILES);
    const made = ['/dev/null.staging', '/dev/null.production'];
    try {
      const r = await t.cli(['test', '--all-tenants', '--reporter', 'console=/dev/null', '--reporter', 'json=r.json']);
      expect(r.code).toBe(3);
      expect(made.filter((f) => existsSync(f))).toEqual([]);
      expect(r.stderr).toBe('tenant staging: wrote /dev/null, r.staging.json\ntenant production: wrote /dev/null, r.production.json\n');
    } finally {
      for (const f of made) rmSync(f, { force: true });
    }
  });

  it('github: each tenant summary is headed by its name, a blank line before the next; annotations name the tenant', async () => {
    const t = await twoTenants(FILES);
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'github'], { GITHUB_STEP_SUMMARY: 'summary.md' });
    expect(r.code).toBe(3);
    const errors = r.stdout.split('\n').filter((line) => line.startsWith('::error '));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('title=roleflow (tenant staging)%3A echoes [https]::');
    expect(errors[1]).toContain('title=roleflow (tenant production)%3A echoes [https]::');
    const summary = await t.p.read('summary.md');
    expect(summary).toMatch(/^## ❌ roleflow test on staging: 0 passed, 1 failed/);
    // CommonMark ends the <details> HTML block at a blank line only: without one the heading is swallowed.
    expect(summary).toMatch(/<\/details>\n\n## ❌ roleflow test on production: 0 passed, 1 failed/);
    expect(summary.endsWith('</details>\n\n')).toBe(true);
    // A run over one tenant keeps its plain title.
    const one = await t.cli(['test', '--tenant', 'staging', '--reporter', 'github=one.md']);
    expect(one.stdout).toContain('title=roleflow%3A echoes [https]::');
    expect(await t.p.read('one.md')).toMatch(/^## ❌ roleflow test: 0 passed/);
    expect(noToken(r)).toBe(true);
  });

  it('a tenant that cannot be reached is named and the closing line still comes; a missing token stops the run before any test', async () => {
    const t = await twoTenants(FILES);
    const missing = await t.cli(['test', '--all-tenants', '--reporter', 'json=r.json'], { ROLEFLOW_TOKEN_PRODUCTION: '' });
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'error: tenant "production": no token; set the environment variable ROLEFLOW_TOKEN_PRODUCTION\n' });
    expect(requestCount(t.staging)).toBe(0);
    await t.production.close();
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'console']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: tenant production cannot run the tests: cannot reach http:\/\/127\.0\.0\.1:\d+/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Tenants: staging had failed tests; production could not be tested.');
    expect(noToken(r)).toBe(true);
  });
});
