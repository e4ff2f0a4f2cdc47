import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { mutations, tenantState } from './roles-kit.js';
import { commitAll, noToken, twoTenants } from './tenants-kit.js';

// Variables and per-tenant Roles through a run over both tenants at once, and through promote:
// each tenant's plan renders the files for that tenant, in one comment, one apply, one promotion.

const FILES = {
  'roles/support.md': '---\nname: support\ndescription: "Support for ${vars.product}"\n---\nYou support ${vars.product}; mail ${vars.email}. Keep {{user}} and $${vars.literal}.\n',
  'roles/experiment.md': '---\nname: experiment\ndescription: trial\ntenants: [staging]\n---\nTry ${vars.product} beta.\n',
  'flows/echo.yaml': `flow: echo\ntransport: ws\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].word", equals: hi }\n`,
};
const setup = () =>
  twoTenants(FILES, {
    config: 'vars: { product: Acme }',
    vars: { staging: { email: 'qa@acme.test' }, production: { email: 'help@acme.test', product: 'Acme Cloud' } },
  });

describe('variables and per-tenant Roles over several tenants in one run', () => {
  it('plan --all-tenants --format markdown shows each tenant its own rendered text, the trial Role on staging only', async () => {
    const t = await setup();
    const r = await t.cli(['plan', '--all-tenants', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| <code>staging</code> | 2 | 0 | 0 | none |');
    expect(r.stdout).toContain('| <code>production</code> | 1 | 0 | 0 | none |');
    const production = r.stdout.slice(r.stdout.indexOf('### roleflow plan for <code>production</code>'));
    const staging = r.stdout.slice(0, r.stdout.indexOf('### roleflow plan for <code>production</code>'));
    expect(staging).toContain('mail qa@acme.test');
    expect(production).toContain('You support Acme Cloud; mail help@acme.test.');
    expect(production).not.toContain('experiment');
    expect(noToken(r)).toBe(true);
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
  });

  it('apply --all-tenants sends each tenant its values; a second plan over both shows no change', async () => {
    const t = await setup();
    const r = await t.cli(['apply', '--all-tenants', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(tenantState(t.staging)).toEqual([
      'experiment: trial / Try Acme beta.',
      'support: Support for Acme / You support Acme; mail qa@acme.test. Keep {{user}} and ${vars.literal}.',
    ]);
    expect(tenantState(t.production)).toEqual(['support: Support for Acme Cloud / You support Acme Cloud; mail help@acme.test. Keep {{user}} and ${vars.literal}.']);
    const again = await t.cli(['plan', '--all-tenants', '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });

  it('promote renders the files for the tenant promoted to: production gets its own values, and not the staging-only Role', async () => {
    const t = await setup();
    await commitAll(t.p);
    expect((await t.cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    expect((await t.cli(['test', '--tenant', 'staging', '--reporter', 'json=report.json'])).code).toBe(0);
    const r = await t.cli(['promote', '--from', 'staging', '--to', 'production', '--report', 'report.json', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(tenantState(t.production)).toEqual(['support: Support for Acme Cloud / You support Acme Cloud; mail help@acme.test. Keep {{user}} and ${vars.literal}.']);
    expect(noToken(r)).toBe(true);
  });

  it('an undeclared variable on one tenant stops a run over both before anything is sent to either', async () => {
    const t = await twoTenants(FILES, {
      config: 'vars: { product: Acme }',
      vars: { staging: { email: 'qa@acme.test', phone: '555' }, production: { email: 'help@acme.test' } },
    });
    await t.p.write('roles/phone.md', '---\nname: phone\ndescription: call\n---\nCall ${vars.phone}.\n');
    const r = await t.cli(['apply', '--all-tenants', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/roles\/phone\.md:5:\d+: .*\$\{vars\.phone\} is not declared for tenant "production"/);
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
  });
});

describe('not_leaks over several tenants', () => {
  const LONG = 'Acme Cloud Enterprise Edition for Retail Banking';
  const flow = (reply: string, role: string) =>
    `  - name: leaks ${role}\n    inputs: { reply: "${reply}" }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: results, not_leaks: ${role} }\n`;
  const LEAKS = {
    'roles/guide.md': '---\nname: guide\ndescription: guide\n---\n# Guide\n\nYou are the assistant of ${vars.product}.\n',
    'roles/trial.md': '---\nname: trial\ndescription: trial\ntenants: [staging]\n---\nThe beta of ${vars.product} has secret features.\n',
    'flows/leak.yaml': `flow: echo\ntransport: ws\ntests:\n${flow(`Hi, the assistant of ${LONG} here`, 'guide')}${flow(`The beta of ${LONG} has secret features!`, 'trial')}`,
  };

  it('each tenant looks for the Roles rendered with its own values; a Role not for it is still looked for', async () => {
    const t = await twoTenants(LEAKS, { vars: { staging: { product: 'Acme' }, production: { product: LONG } } });
    const r = await t.cli(['test', '--all-tenants', '--reporter', 'console', '--reporter', 'json=report.json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Tenants: staging passed; production had failed tests.');
    const report = (tenant: string) => JSON.parse(readFileSync(join(t.p.dir, `report.${tenant}.json`), 'utf8')) as RunReport;
    expect(report('staging').summary).toMatchObject({ passed: 2, failed: 0 });
    const messages = report('production').results.map((x) => x.repeats[0]!.assertions[0]!.message);
    expect(messages).toEqual([
      expect.stringContaining(`of Role guide (roles/guide.md:7): "the assistant of Acme`),
      expect.stringContaining(`of Role trial (roles/trial.md:6): "The beta of Acme Cloud`),
    ]);
    expect(noToken(r)).toBe(true);
  });
});
