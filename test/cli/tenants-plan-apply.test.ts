import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { CliResult } from '../helpers/cli.js';
import { call } from '../helpers/emulator.js';
import { mutations, requestCount, roleText, tenantState } from './roles-kit.js';
import { noToken, twoTenants } from './tenants-kit.js';

const validPlan = compileSchema(loadSchema('plan'));

/**
 * `apply --json` of a saved plan of staging and production refused whole for production's
 * sake: exit 4, production refused with its own reason (naming `role`), staging not attempted.
 */
function onlyProductionRefused(r: CliResult, role: string): void {
  expect(r.code).toBe(4);
  const result = applyResult(r);
  expect(result.tenants.map((e) => [e.tenant.name, e.status])).toEqual([['production', 'refused']]);
  expect(result.tenants[0]!.reasons.join(' ')).toContain(role);
  expect(result.not_attempted).toEqual(['staging']);
  expect(r.stderr).toContain('Tenants: production refused (nothing sent to it); not attempted: staging.');
  expect(r.stderr).not.toContain('tenant staging:');
}

/** `apply --json`'s document for several tenants. */
const applyResult = (r: CliResult) => JSON.parse(r.stdout) as { tenants: { tenant: { name: string }; status: string; reasons: string[] }[]; not_attempted: string[] };

/** `a` is new everywhere; `b` is on production with older content (an update there only). */
const FILES = {
  'roles/a.md': roleText('a', 'first', 'You are A.'),
  'roles/b.md': roleText('b', 'second', 'You are B, v2.'),
};
const setup = () =>
  twoTenants(FILES, {
    stagingRoles: [{ name: 'a', description: 'first', content: 'You are A.' }, { name: 'b', description: 'second', content: 'You are B, v2.' }],
    productionRoles: [{ name: 'b', description: 'second', content: 'You are B, v1.' }],
  });

describe('plan over several tenants', () => {
  it('--all-tenants --format markdown is one comment: a summary table, then a section per tenant', async () => {
    const t = await setup();
    const r = await t.cli(['plan', '--all-tenants', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## roleflow plan for 2 tenants\n\n**1 with changes.**\n');
    expect(r.stdout).toContain('| Tenant | Create | Update | Delete | Guards |');
    expect(r.stdout).toContain('| <code>staging</code> | 0 | 0 | 0 | none |');
    expect(r.stdout).toContain('| <code>production</code> | 1 | 1 | 0 | none |');
    const staging = r.stdout.indexOf('### roleflow plan for <code>staging</code>');
    const production = r.stdout.indexOf('### roleflow plan for <code>production</code>');
    expect(staging).toBeGreaterThan(r.stdout.indexOf('| <code>production</code>'));
    expect(production).toBeGreaterThan(staging);
    expect(r.stdout.slice(production)).toContain('content diff');
    expect(noToken(r)).toBe(true);
    expect(mutations(t.staging)).toEqual([]);
    expect(mutations(t.production)).toEqual([]);
  });

  it('JSON for several tenants is {format_version, tenants, digest} and validates; for one it keeps the plan shape', async () => {
    const t = await setup();
    const several = await t.cli(['plan', '--tenant', 'production', '--tenant', 'staging', '--json']);
    expect(several.code).toBe(0);
    const doc = JSON.parse(several.stdout) as { format_version: number; tenants: { tenant: { name: string }; summary: object }[]; digest: string };
    expect(validPlan(doc), JSON.stringify(validPlan.errors)).toBe(true);
    expect(Object.keys(doc)).toEqual(['format_version', 'tenants', 'digest']);
    expect(doc.tenants.map((p) => p.tenant.name)).toEqual(['production', 'staging']);
    expect(doc.tenants[0]!.summary).toMatchObject({ create: 1, update: 1, delete: 0, unchanged: 0 });
    const one = JSON.parse((await t.cli(['plan', '--tenant', 'production', '--json'])).stdout) as Record<string, unknown>;
    expect(validPlan(one)).toBe(true);
    expect(one).toHaveProperty('changes');
    expect(one).not.toHaveProperty('tenants');
    // The schema takes nothing else: a document of several with a plan's keys, or an empty list.
    expect(validPlan({ ...doc, changes: [] })).toBe(false);
    expect(validPlan({ ...doc, tenants: [] })).toBe(false);
  });

  it('text has a section per tenant and a line each; --detailed-exitcode is 2 when one tenant of two has changes', async () => {
    const t = await setup();
    const r = await t.cli(['plan', '--all-tenants', '--detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^=== tenant staging ===\nTenant staging \(http:\/\/127\.0\.0\.1:\d+\)\n\nNo changes\. The tenant matches roles\/\.\n/);
    expect(r.stdout).toContain('=== tenant production ===\nTenant production');
    expect(r.stdout).toMatch(/2 tenants:\n  staging     No changes\. The tenant matches roles\/\.\n  production  Plan: 1 to create, 1 to update, 0 to delete\.\n$/);
    const once = await t.cli(['plan', '--tenant', 'staging', '--tenant', 'staging', '--detailed-exitcode', '--out', 'once.json']);
    expect(once.code).toBe(0);
    expect(once.stdout).toContain('\n1 tenant:\n  staging  No changes.');
    expect(once.stderr).toContain('Saved the plan of tenant staging to once.json. To carry it out: roleflow apply once.json');
  });

  it('an unknown tenant among several stops the run before anything is sent, with a guess', async () => {
    const t = await setup();
    const r = await t.cli(['plan', '--tenant', 'staging', '--tenant', 'prodution']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: unknown tenant "prodution" in roleflow.config.yaml (did you mean "production"?); known: local, staging, production\n');
    expect(requestCount(t.staging)).toBe(0);
    const pull = await t.cli(['pull', '--tenant', 'staging', '--tenant', 'production']);
    expect(pull).toMatchObject({ code: 1, stderr: 'error: --tenant is given 2 times: roleflow pull works on one tenant\n' });
  });
});

describe('apply over several tenants', () => {
  it('applies a fresh plan of every tenant one at a time, in order, and says how each ended', async () => {
    const t = await setup();
    const r = await t.cli(['apply', '--all-tenants', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('=== tenant staging ===\nNo changes.\n=== tenant production ===\n~ updated b');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Tenants: staging no changes; production applied.');
    expect(tenantState(t.production)).toEqual(['a: first / You are A.', 'b: second / You are B, v2.']);
    expect(noToken(r)).toBe(true);
  });

  it('guards refusing the fresh plan of one tenant send nothing to any tenant (exit 4); the others were not attempted', async () => {
    const t = await twoTenants(FILES, {
      config: 'roles: { protect: ["b"] }',
      productionRoles: [{ name: 'b', description: 'second', content: 'You are B, v1.' }],
    });
    const r = await t.cli(['apply', '--all-tenants', '--auto-approve', '--json']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: tenant "production": ');
    expect(r.stderr).toContain('Tenants: production refused (nothing sent to it); not attempted: staging.');
    expect(r.stderr).not.toContain('staging refused');
    const result = applyResult(r);
    expect(result.tenants.map((e) => [e.tenant.name, e.status])).toEqual([['production', 'refused']]);
    expect(result.not_attempted).toEqual(['staging']);
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
  });

  it('a saved plan of two tenants, production changed since: refused whole before anything is sent, staging untouched too', async () => {
    const t = await setup();
    await t.p.write('roles/c.md', roleText('c', 'third', 'You are C.'));
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    expect((await t.cli(['plan', '--tenant', 'production', '--tenant', 'staging', '--out', 'reversed.json'])).code).toBe(0);
    // Production changes after the plans were made: its part of both plans is stale.
    const b = t.production.roles().find((role) => role.name === 'b')!;
    await call(t.production, 'POST', '/admin/roles/update', { body: { id: b.id, name: 'b', description: 'second', content: 'edited by hand' } });
    const productionMark = requestCount(t.production);

    for (const file of ['both.json', 'reversed.json']) {
      const r = await t.cli(['apply', file]);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: the saved plan ${file} is refused; nothing was applied to any tenant:\n  - tenant production: `);
      expect(r.stderr).not.toContain('tenant staging:');
      expect(r.stderr).toContain('Tenants: production refused (nothing sent to it); not attempted: staging.');
    }
    const both = await t.cli(['apply', 'both.json', '--json']);
    onlyProductionRefused(both, '"b"');
    expect(mutations(t.staging)).toEqual([]);
    expect(mutations(t.production, productionMark)).toEqual([]);
    expect(noToken(both)).toBe(true);
  });

  it('a saved plan of two tenants with a token production refuses, or production moved in the config: nothing sent anywhere', async () => {
    const t = await setup();
    await t.p.write('roles/c.md', roleText('c', 'third', 'You are C.'));
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    const wrong = await t.cli(['apply', 'both.json', '--json'], { ROLEFLOW_TOKEN_PRODUCTION: 'not-the-token' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('error: the saved plan both.json is refused; nothing was applied to any tenant:\n  - tenant production: ');
    expect(wrong.stderr).not.toContain('not-the-token');
    const result = applyResult(wrong);
    expect(result.tenants.map((e) => [e.tenant.name, e.status])).toEqual([['production', 'failed']]);
    expect(result.not_attempted).toEqual(['staging']);

    // Production's base_url changed in today's config: found without asking it (a second emulator there).
    const elsewhere = await twoTenants(FILES);
    const config = await t.p.read('roleflow.config.yaml');
    await t.p.write('roleflow.config.yaml', config.replace(t.production.baseUrl, elsewhere.production.baseUrl));
    const moved = await t.cli(['apply', 'both.json']);
    expect(moved.code).toBe(4);
    expect(moved.stderr).toContain(`  - tenant production: the plan was made for ${t.production.baseUrl}, not ${elsewhere.production.baseUrl}`);
    expect(moved.stderr).toContain('Tenants: production refused (nothing sent to it); not attempted: staging.');
    expect([...mutations(t.staging), ...mutations(t.production), ...mutations(elsewhere.production)]).toEqual([]);
    expect(requestCount(elsewhere.production)).toBe(0);
    expect(noToken(wrong) && noToken(moved)).toBe(true);
  });

  it('a saved plan of several tenants refuses --tenant, --all-tenants, --base-url and --ws-url in one line, sending nothing', async () => {
    const t = await setup();
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    const marks = [requestCount(t.staging), requestCount(t.production)];
    const refused = async (args: string[], line: string) => {
      const r = await t.cli(['apply', 'both.json', ...args]);
      expect(r).toEqual({ code: 1, stdout: '', stderr: `error: ${line}\n` });
    };
    const all = 'a saved plan of 2 tenants: it applies all of them (staging, production) in order, each where it was planned; for fewer, make a plan of those: roleflow plan --tenant NAME --out FILE';
    // Naming one of its tenants is refused too: the saved plan is applied whole or not at all.
    await refused(['--tenant', 'staging'], `--tenant does not go with both.json, ${all}`);
    await refused(['--tenant', 'staging', '--tenant', 'production'], `--tenant does not go with both.json, ${all}`);
    await refused(['--base-url', t.staging.baseUrl], `--base-url does not go with both.json, ${all}`);
    await refused(['--tenant', 'production', '--ws-url', t.production.wsUrl], `--tenant, --ws-url do not go with both.json, ${all}`);
    await refused(['--all-tenants'], '--all-tenants does not go with a saved plan: it applies the tenants it was made for, in order');
    await refused(['--prune'], '--prune does not go with a saved plan: it already says what to do');
    await refused(['--no-prune', '--roles', 'roles'], '--roles and --no-prune do not go with a saved plan: it already says what to do');
    // ROLEFLOW_TENANT is refused as --tenant is (a saved plan of one under it is refused too: another tenant, exit 4).
    const env = await t.cli(['apply', 'both.json'], { ROLEFLOW_TENANT: 'staging' });
    expect(env).toEqual({ code: 1, stdout: '', stderr: `error: ROLEFLOW_TENANT does not go with both.json, ${all}\n` });
    expect([requestCount(t.staging), requestCount(t.production)]).toEqual(marks);
    // Without them it applies.
    expect((await t.cli(['apply', 'both.json'])).code).toBe(0);
    expect(tenantState(t.production)).toContain('a: first / You are A.');
  });

  it('a saved plan of one tenant refuses another tenant with the reason, and --tenant more than once in one line', async () => {
    const t = await setup();
    expect((await t.cli(['plan', '--tenant', 'production', '--out', 'one.json'])).code).toBe(0);
    const other = await t.cli(['apply', 'one.json', '--tenant', 'staging']);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('error: the saved plan one.json no longer fits the tenant; nothing was applied:\n  - the plan was made for tenant "production", not "staging"\n');
    const twice = await t.cli(['apply', 'one.json', '--tenant', 'production', '--tenant', 'staging']);
    expect(twice).toEqual({ code: 1, stdout: '', stderr: 'error: --tenant more than once does not go with one.json, a saved plan of tenant production: it applies to that tenant only\n' });
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
  });

  it('today\'s guards refusing the second tenant of a saved plan: that tenant refused with its own reason, the first not attempted', async () => {
    const t = await setup();
    await t.p.write('roles/c.md', roleText('c', 'third', 'You are C.'));
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    await t.p.write('roleflow.config.yaml', `${await t.p.read('roleflow.config.yaml')}roles: { protect: ["b"] }\n`);
    const r = await t.cli(['apply', 'both.json', '--json']);
    onlyProductionRefused(r, '"b"');
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
  });

  it('refuses a saved plan of several tenants whose tenants were reordered, sending nothing', async () => {
    const t = await setup();
    expect((await t.cli(['plan', '--all-tenants', '--out', 'plan.json'])).code).toBe(0);
    const doc = JSON.parse(await t.p.read('plan.json')) as { tenants: unknown[] };
    await t.p.write('plan.json', JSON.stringify({ ...doc, tenants: [...doc.tenants].reverse() }, null, 2));
    const marks = [requestCount(t.staging), requestCount(t.production)];
    const r = await t.cli(['apply', 'plan.json']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('its tenants were removed, added or reordered since `roleflow plan --out` wrote it');
    expect(r.stderr).toContain('Make a new plan: roleflow plan --tenant production --tenant staging --out FILE');
    expect([requestCount(t.staging), requestCount(t.production)]).toEqual(marks);
  });
});

describe('every tenant resolved before anything is sent; one tenant failing mid-way', () => {
  it('a saved plan of two tenants with a missing token, or a tenant gone from the config, sends nothing anywhere (exit 1)', async () => {
    const t = await setup();
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    expect((await t.cli(['plan', '--tenant', 'production', '--out', 'one.json'])).code).toBe(0);
    const marks = [requestCount(t.staging), requestCount(t.production)];
    const noToken = await t.cli(['apply', 'both.json', '--json'], { ROLEFLOW_TOKEN_PRODUCTION: '' });
    expect(noToken).toMatchObject({ code: 1, stdout: '', stderr: 'error: tenant "production": no token; set the environment variable ROLEFLOW_TOKEN_PRODUCTION\n' });
    const fresh = await t.cli(['apply', '--all-tenants', '--auto-approve'], { ROLEFLOW_TOKEN_PRODUCTION: '' });
    expect(fresh).toMatchObject({ code: 1, stdout: '' });
    const config = await t.p.read('roleflow.config.yaml');
    await t.p.write('roleflow.config.yaml', config.split('\n').filter((line) => !line.includes('production:')).join('\n'));
    const gone = await t.cli(['apply', 'both.json']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe('error: the saved plan both.json names tenant "production", which is not in roleflow.config.yaml (known: local, staging); nothing was sent: add it back to the config, or make a new plan\n');
    expect((await t.cli(['apply', 'one.json'])).stderr).toContain('error: the saved plan one.json names tenant "production", which is not in roleflow.config.yaml');
    expect([requestCount(t.staging), requestCount(t.production)]).toEqual(marks);
  });

  it('a saved plan of two tenants with production unreachable applies nothing anywhere (exit 1): --json still prints the document', async () => {
    const t = await setup();
    await t.p.write('roles/c.md', roleText('c', 'third', 'You are C.'));
    expect((await t.cli(['plan', '--all-tenants', '--out', 'both.json'])).code).toBe(0);
    await t.production.close();
    const r = await t.cli(['apply', 'both.json', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ {2}- tenant production: cannot reach http:\/\/127\.0\.0\.1:\d+/m);
    const result = applyResult(r);
    expect(result.tenants.map((e) => [e.tenant.name, e.status])).toEqual([['production', 'failed']]);
    expect(result.not_attempted).toEqual(['staging']);
    const text = await t.cli(['apply', 'both.json']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr.trimEnd().split('\n').at(-1)).toBe('Tenants: production failed; not attempted: staging.');
    expect(mutations(t.staging)).toEqual([]);
    expect(noToken(r) && noToken(text)).toBe(true);
  });

  it('a change that fails on one tenant of several: its failure line on stderr names the tenant, and how to converge there', async () => {
    const t = await twoTenants(FILES, {
      productionRoles: [{ name: 'b', description: 'second', content: 'You are B, v1.' }],
      productionOptions: { disable: ['POST /admin/roles/update', 'POST /admin/policies/update'] },
    });
    const r = await t.cli(['apply', '--all-tenants', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tenant "production": Apply (failed|incomplete)/m);
    expect(r.stderr).toContain('Run `roleflow apply --tenant production` again');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('Tenants: staging applied; production failed.');
    expect(noToken(r)).toBe(true);
  });

  it('a saved plan of one tenant is applied to its own tenant without --tenant; another tenant is refused with fitting advice', async () => {
    const t = await setup();
    const saved = await t.cli(['plan', '--tenant', 'production', '--out', 'one.json']);
    expect(saved.stderr).toContain('To carry out exactly this plan: roleflow apply one.json');
    const other = await t.cli(['apply', 'one.json', '--tenant', 'staging']);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('It names its tenant: roleflow apply one.json --tenant production (or without --tenant and ROLEFLOW_TENANT) applies it there.');
    expect(other.stderr).not.toContain('Make a new plan');
    expect((await t.cli(['apply', 'one.json'], { ROLEFLOW_TENANT: 'staging' })).code).toBe(4);
    expect([...mutations(t.staging), ...mutations(t.production)]).toEqual([]);
    const r = await t.cli(['apply', 'one.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Applying the saved plan one.json to tenant production. Plan: 1 to create, 1 to update, 0 to delete.');
    expect(tenantState(t.production)).toEqual(['a: first / You are A.', 'b: second / You are B, v2.']);
    expect(mutations(t.staging)).toEqual([]);
  });
});

describe('plan over several tenants with one that cannot be reached', () => {
  it('shows every reachable tenant in text, markdown and JSON, names the failing tenant, exits 1 and saves nothing', async () => {
    const t = await setup();
    await t.production.close();
    const text = await t.cli(['plan', '--all-tenants', '--detailed-exitcode', '--out', 'both.json']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^=== tenant staging ===\nTenant staging \(http:\/\/127\.0\.0\.1:\d+\)\n\nNo changes\./);
    expect(text.stdout).toMatch(/=== tenant production ===\nNot planned: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(text.stdout).toMatch(/2 tenants:\n  staging     No changes\. The tenant matches roles\/\.\n  production  Not planned: cannot reach /);
    expect(text.stderr).toMatch(/^error: tenant "production": cannot reach http:\/\/127\.0\.0\.1:\d+/m);
    expect(text.stderr).toContain('The plan was not saved to both.json: a tenant was not planned.');
    await expect(t.p.read('both.json')).rejects.toThrow();
    expect(text.stderr).not.toContain('an older');
    // An older file of that name is left, and said not to be this plan.
    await t.p.write('old.json', 'an older plan');
    const older = await t.cli(['plan', '--all-tenants', '--out', 'old.json']);
    expect(older.code).toBe(1);
    expect(older.stderr).toContain('The plan was not saved to old.json: a tenant was not planned. old.json was not written (an older old.json is still there: it is not this plan).');
    expect(await t.p.read('old.json')).toBe('an older plan');

    const md = await t.cli(['plan', '--all-tenants', '--format', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).toContain('**0 with changes, 1 not planned.**');
    expect(md.stdout).toContain('| <code>staging</code> | 0 | 0 | 0 | none |');
    expect(md.stdout).toMatch(/\| <code>production<\/code> \| – \| – \| – \| ⚠️ not planned: cannot reach /);
    expect(md.stdout).toContain('### roleflow plan for <code>staging</code>');

    const json = await t.cli(['plan', '--all-tenants', '--json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as { tenants: ({ tenant: { name: string }; error?: { code: string; message: string } })[] };
    expect(validPlan(doc), JSON.stringify(validPlan.errors)).toBe(true);
    expect(doc.tenants.map((p) => [p.tenant.name, p.error?.code])).toEqual([['staging', undefined], ['production', 'unreachable']]);
    // Such a document is shown, never applied.
    await t.p.write('printed.json', json.stdout);
    const apply = await t.cli(['apply', 'printed.json']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('tenant "production" in it was not planned');
    expect(mutations(t.staging)).toEqual([]);
    expect(noToken(text) && noToken(md) && noToken(json)).toBe(true);
  });

  it('--verbose request lines of a run over several tenants name the tenant', async () => {
    const t = await setup();
    const r = await t.cli(['plan', '--all-tenants', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^tenant staging: GET \/admin\/roles\S* 200 \d+ms$/m);
    expect(r.stderr).toMatch(/^tenant production: GET \/admin\/roles\S* 200 \d+ms$/m);
  });
});
