import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runBin, runCli, type CliResult } from '../helpers/cli.js';
import { emulator, project, seed, tenantState, TOKEN, type Project } from './roles-kit.js';

/** Variables and per-tenant Roles, against two tenants on 127.0.0.1: staging and production. */

// A long opaque value, sent as it is (a value in a key format, such as sk-…, would be refused as a secret).
const SECRET_LOOKING = 'hint-live-0123456789abcdef';

function config(staging: RunningEmulator, production: RunningEmulator): string {
  return [
    'vars:',
    '  product: Acme',
    `  api_hint: "${SECRET_LOOKING}"`,
    'tenants:',
    '  staging:',
    `    base_url: ${staging.baseUrl}`,
    '    token_env: STAGING_TOKEN',
    '    vars: { support_email: staging-help@acme.test }',
    '  production:',
    `    base_url: ${production.baseUrl}`,
    '    token_env: PRODUCTION_TOKEN',
    '    vars: { support_email: help@acme.test, product: Acme Cloud }',
    '',
  ].join('\n');
}

const SUPPORT = [
  '---',
  'name: support',
  'description: "Support for ${vars.product}"',
  '---',
  'You support ${vars.product}. Write to ${vars.support_email}.',
  'Keep {{user}} and ${input} as they are; $${vars.product} is literal.',
  'Hint: ${vars.api_hint}',
  '',
].join('\n');

const EXPERIMENT = '---\nname: experiment\ndescription: try it\ntenants: [staging]\n---\nAn experiment for ${vars.product}.\n';

async function setup(): Promise<{ p: Project; staging: RunningEmulator; production: RunningEmulator; cli: (args: string[]) => Promise<CliResult> }> {
  const staging = await emulator();
  const production = await emulator();
  const p = await project({ 'roleflow.config.yaml': config(staging, production), 'roles/support.md': SUPPORT, 'roles/experiment.md': EXPERIMENT });
  const env = { STAGING_TOKEN: staging.token, PRODUCTION_TOKEN: production.token };
  const cli = async (args: string[]): Promise<CliResult> => {
    const r = await runCli(args, { cwd: p.dir, env });
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    return r;
  };
  return { p, staging, production, cli };
}

describe('variables and per-tenant Roles', () => {
  it("each tenant gets its own values, and a Role with tenants: [staging] only goes there", async () => {
    const { staging, production, cli } = await setup();
    const plan = await cli(['plan', '--tenant', 'staging']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ create support (roles/support.md)');
    expect(plan.stdout).toContain('+ create experiment (roles/experiment.md)');
    for (const tenant of ['staging', 'production']) {
      const applied = await cli(['apply', '--tenant', tenant, '--auto-approve']);
      expect(applied.code, applied.stderr).toBe(0);
    }
    const body = (product: string, email: string): string =>
      `support: Support for ${product} / You support ${product}. Write to ${email}.\n` +
      'Keep {{user}} and ${input} as they are; ${vars.product} is literal.\n' +
      `Hint: ${SECRET_LOOKING}`;
    expect(tenantState(staging)).toEqual(['experiment: try it / An experiment for Acme.', body('Acme', 'staging-help@acme.test')]);
    expect(tenantState(production)).toEqual([body('Acme Cloud', 'help@acme.test')]);
    for (const tenant of ['staging', 'production']) {
      const again = await cli(['plan', '--tenant', tenant, '--detailed-exitcode']);
      expect(again.code, again.stdout).toBe(0);
    }
  });

  it('a saved plan holds the rendered text and applies', async () => {
    const { p, production, cli } = await setup();
    const saved = await cli(['plan', '--tenant', 'production', '--out', 'prod.plan.json']);
    expect(saved.code, saved.stderr).toBe(0);
    const planText = await p.read('prod.plan.json');
    expect(planText).toContain('Support for Acme Cloud');
    expect(planText).not.toContain('${vars.support_email}');
    const applied = await cli(['apply', 'prod.plan.json', '--tenant', 'production']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(tenantState(production)[0]).toContain('Write to help@acme.test.');
  });

  it('with prune, a Role whose file is for other tenants is deleted there, and the plan says why', async () => {
    const { production, cli } = await setup();
    await seed(production, 'experiment');
    const kept = await cli(['plan', '--tenant', 'production']);
    expect(kept.stdout).toMatch(/"experiment" \(id [^)]+\) is left unmanaged on tenant "production": roles\/experiment\.md is not for tenant/);
    const plan = await cli(['plan', '--tenant', 'production', '--prune']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('- delete experiment');
    expect(plan.stdout).toContain('roles/experiment.md is not for tenant "production" (tenants: [staging] in roles/experiment.md:4)');
  });

  it('an undeclared variable stops validate with its place and the tenant, and plan before sending anything', async () => {
    const { p, production, cli } = await setup();
    await p.write('roles/support.md', SUPPORT.replace('${vars.support_email}', '${vars.support_phone}'));
    // The built CLI, as a user runs it: the config schema's standalone validator reads vars.
    const validate = await runBin(['validate'], { cwd: p.dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(
      'roles/support.md:5:39: content: ${vars.support_phone} is not declared for tenants "staging", "production"',
    );
    const requests = production.requests().length;
    const plan = await cli(['plan', '--tenant', 'production']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('roles/support.md:5:39: content: ${vars.support_phone} is not declared for tenant "production"');
    expect(production.requests().length).toBe(requests);
  });

  it('validate renders a per-tenant file for its tenants only', async () => {
    const { p } = await setup();
    // Only staging declares support_email: a file for staging alone may use it.
    await p.write('roles/support.md', '---\nname: support\ndescription: d\ntenants: [stag*]\n---\n${vars.support_email}\n');
    const validate = await runCli(['validate'], { cwd: p.dir });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).not.toContain('warning');
    await p.write('roles/support.md', '---\nname: support\ndescription: d\ntenants: [stagnig]\n---\nx\n');
    const typo = await runCli(['validate'], { cwd: p.dir });
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain('roles/support.md:4:11: warning: tenants: "stagnig" is not a tenant of the config ("local", "staging", "production")');
    await p.write('roles/experiment.md', '---\nname: experiment\ndescription: d\ntenants: staging\n---\nx\n');
    const bad = await runCli(['validate'], { cwd: p.dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('roles/experiment.md:4:10: tenants: must be array, got string');
  });

  it('pull then plan shows no change with variables in use; new text is escaped', async () => {
    const { p, staging, cli } = await setup();
    expect((await cli(['apply', '--tenant', 'staging', '--auto-approve'])).code).toBe(0);
    await seed(staging, 'raw', 'about ${vars.product}', 'Literal ${vars.product} and $${vars.x}');
    const pulled = await cli(['pull', '--tenant', 'staging']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('1 written, 2 unchanged, 0 skipped');
    expect(await p.read('roles/support.md')).toBe(SUPPORT);
    const raw = await p.read('roles/raw.md');
    expect(raw).toContain('description: about $${vars.product}');
    expect(raw).toContain('Literal $${vars.product} and $$${vars.x}');
    const plan = await cli(['plan', '--tenant', 'staging', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  });

  it('pull leaves a file that is not for the tenant alone, and says so', async () => {
    const { p, production, cli } = await setup();
    await seed(production, 'experiment', 'other', 'changed on production');
    const pulled = await cli(['pull', '--tenant', 'production', '--force']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('warning: skipped roles/experiment.md, Role experiment (id ');
    expect(pulled.stderr).toContain('its file is not for tenant "production" (tenants: [staging] in roles/experiment.md:4): left alone');
    expect(await p.read('roles/experiment.md')).toBe(EXPERIMENT);
  });

  it("pull says a file left alone is not for the tenant, not that its Role is missing there", async () => {
    const { cli } = await setup();
    expect((await cli(['apply', '--tenant', 'production', '--auto-approve'])).code).toBe(0);
    const pulled = await cli(['pull', '--tenant', 'production']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('1 role file(s) not for tenant "production" (their tenants: does not name it) were left alone: roles/experiment.md');
    expect(pulled.stdout).not.toContain('whose Role is not on the tenant');
    const json = await cli(['pull', '--tenant', 'production', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ local_only: [], not_for_tenant: ['roles/experiment.md'] });
  });

  it('validate renders for local only when the embedded tenant is in use; plan against local still stops', async () => {
    const { p } = await setup();
    // support_email is declared for both configured tenants, not at the top level (local's).
    const validate = await runCli(['validate'], { cwd: p.dir });
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await runCli(['plan', '--tenant', 'local'], { cwd: p.dir });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('roles/support.md:5:39: content: ${vars.support_email} is not declared for tenant "local"');
    const config = await p.read('roleflow.config.yaml');
    await p.write('roleflow.config.yaml', `default_tenant: local\n${config}`);
    const local = await runCli(['validate'], { cwd: p.dir });
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('roles/support.md:5:39: content: ${vars.support_email} is not declared for tenant "local"');
  });

  it('plan and apply warn about a tenants: name no tenant has, at the name, and about tenants: []', async () => {
    const { p, staging, production, cli } = await setup();
    await p.write('roles/experiment.md', EXPERIMENT.replace('tenants: [staging]', 'tenants: [staging, prodution]'));
    await p.write('roles/retired.md', '---\nname: retired\ndescription: d\ntenants: []\n---\nx\n');
    const typo = 'roles/experiment.md:4:20: warning: tenants: "prodution" is not a tenant of the config ("local", "staging", "production")';
    const none = 'roles/retired.md:4:1: warning: tenants: [] manages the Role on no tenant; with prune it is deleted everywhere';
    const plan = await cli(['plan', '--all-tenants', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    // Once per run, not once per tenant.
    expect(plan.stderr.split(typo).length - 1).toBe(1);
    expect(plan.stderr.split(none).length - 1).toBe(1);
    const apply = await cli(['apply', '--tenant', 'production', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(typo);
    expect(apply.stderr).toContain(none);
    expect(tenantState(production)).toHaveLength(1);
    expect(tenantState(staging)).toEqual([]);
  });

  it('a Role that renders over the size limit is a located error at validate and plan, before anything is sent', async () => {
    const { p, staging, cli } = await setup();
    const config = await p.read('roleflow.config.yaml');
    await p.write('roleflow.config.yaml', config.replace('vars:\n', `vars:\n  big: "${'x'.repeat(700_000)}"\n`));
    await p.write('roles/big.md', '---\nname: big\ndescription: d\n---\n${vars.big}\n${vars.big}\n');
    const validate = await runCli(['validate'], { cwd: p.dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toMatch(/^roles\/big\.md:5:1: the Role renders to 1,400,0\d\d bytes for tenants "staging", "production", over the limit of 1,047,552 bytes/m);
    const plan = await cli(['plan', '--tenant', 'staging']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/roles\/big\.md:5:1: the Role renders to 1,400,0\d\d bytes for tenant "staging"/);
    const apply = await cli(['apply', '--tenant', 'staging', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(staging.requests()).toEqual([]);
    // A thousand uses of it: still one located line, no internal error.
    await p.write('roles/big.md', `---\nname: big\ndescription: d\n---\n${'${vars.big} '.repeat(1000)}\n`);
    const many = await cli(['plan', '--tenant', 'staging']);
    expect(many.code).toBe(1);
    expect(many.stderr).toContain('roles/big.md:5:1: the Role renders to more than 4,190,208 bytes for tenant "staging"');
    expect(many.stderr).not.toMatch(/internal|Invalid string length/);
  });
});
