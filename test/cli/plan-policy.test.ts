import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, mutations, project, requestCount, roleText, seed, TOKEN } from './roles-kit.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/** A project whose config names the emulator as tenant prod-eu, with these plan rules. */
async function prodProject(em: RunningEmulator, planRules: string, files: Record<string, string> = {}) {
  return project({
    'roleflow.config.yaml': `default_tenant: prod-eu\ntenants:\n  prod-eu:\n    base_url: ${em.baseUrl}\n    token_env: PROD_TOKEN\npolicy:\n  plan:\n${planRules}`,
    ...files,
  });
}

const env = { PROD_TOKEN: TOKEN };

describe('plan policy', () => {
  it('a plan deleting a Role on a tenant under a hard delete rule is refused by apply: exit 4, nothing sent', async () => {
    const em = await emulator();
    await seed(em, 'keep');
    await seed(em, 'legacy');
    const p = await prodProject(em, '    - { tenants: ["prod*"], action: delete, level: hard }\n', { 'roles/keep.md': roleText('keep', 'keep role', 'You are keep.') });
    const planned = await runCli(['plan', '--prune'], { cwd: p.dir, env });
    expect(planned.code).toBe(4);
    expect(planned.stdout).toContain('Policy:\n  - hard delete: delete of Role "legacy" on tenant "prod-eu"');
    const mark = requestCount(em);
    const applied = await runCli(['apply', '--prune', '--auto-approve', '--allow', 'delete:legacy'], { cwd: p.dir, env });
    expect(applied.code).toBe(4);
    expect(applied.stderr).toContain('policy delete: delete of Role "legacy" on tenant "prod-eu"');
    expect(applied.stderr).toContain('(hard: no override)');
    expect(mutations(em, mark)).toEqual([]);
    // The JSON plan carries the finding.
    const json = await runCli(['plan', '--prune', '--json'], { cwd: p.dir, env });
    expect(JSON.parse(json.stdout).policy).toEqual([expect.objectContaining({ rule: 'delete', level: 'hard', tenant: 'prod-eu', role: 'legacy' })]);
  });

  it('an error rule passes with --allow, recorded in the saved plan; the allow lapses when the Role changes', async () => {
    const em = await emulator();
    await seed(em, 'agent', 'agent role', 'one\ntwo\nthree\nfour');
    const p = await prodProject(em, '    - { name: rewrite, max_changed_lines_pct: 50 }\n', { 'roles/agent.md': roleText('agent', 'agent role', 'ONE\nTWO\nTHREE\nfour') });
    const refused = await runCli(['plan', '--out', 'plan.json'], { cwd: p.dir, env });
    expect(refused.code).toBe(4);
    const hint = /--allow (rewrite:agent@[0-9a-f]{12})/.exec(refused.stdout)?.[1];
    expect(hint).toBeDefined();

    const saved = await runCli(['plan', '--out', 'plan.json', '--allow', hint!], { cwd: p.dir, env });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('allowed by --allow');
    expect(JSON.parse(await p.read('plan.json')).policy).toEqual([expect.objectContaining({ rule: 'rewrite', level: 'error', allowed: true })]);

    // The Role changes: the same --allow no longer fits its content.
    await p.write('roles/agent.md', roleText('agent', 'agent role', 'ONE\nTWO\nTHREE\nFOUR'));
    const mark = requestCount(em);
    const lapsed = await runCli(['apply', '--auto-approve', '--allow', hint!], { cwd: p.dir, env });
    expect(lapsed.code).toBe(4);
    expect(lapsed.stdout).toMatch(/--allow rewrite:agent@[0-9a-f]{12} lapsed: rewrite:agent is now fingerprint/);
    expect(mutations(em, mark)).toEqual([]);

    // The saved plan, made with the override, is carried out as reviewed.
    const applied = await runCli(['apply', 'plan.json'], { cwd: p.dir, env });
    expect(applied.code).toBe(0);
    expect(mutations(em, mark)).toEqual(['POST /admin/roles/update']);
  });

  it('a saved plan is checked against today\'s policy', async () => {
    const em = await emulator();
    const p = await prodProject(em, '    - { max_changes: 10 }\n', { 'roles/a.md': roleText('a', 'd', 'c') });
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: p.dir, env })).code).toBe(0);
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('max_changes: 10', 'action: create, level: hard'));
    const mark = requestCount(em);
    const r = await runCli(['apply', 'plan.json'], { cwd: p.dir, env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("today's policy refuses it: create: create of Role \"a\"");
    expect(mutations(em, mark)).toEqual([]);
  });
});

describe('policy plugins over plans', () => {
  it('a plugin\'s plan findings refuse like the rules\' do, and take an --allow', async () => {
    const em = await emulator();
    const p = await prodProject(em, '    []\n', {
      'roles/a.md': roleText('a', 'd', 'see http://x.example'),
      'policies/no-urls.mjs':
        "export default (input) => input.kind !== 'plan' ? [] : input.plan.changes.filter((c) => /https?:/.test(c.after?.content ?? '')).map((c) => ({ rule: 'no-urls', role: c.name, message: 'a URL in Role ' + c.name }));\n",
    });
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('policy:\n  plan:\n    []\n', 'policy:\n  plugins: [./policies/no-urls.mjs]\n'));
    const refused = await runCli(['plan'], { cwd: p.dir, env });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toContain('error no-urls: a URL in Role a — refused unless --allow no-urls:a@');
    const allowed = await runCli(['apply', '--auto-approve', '--allow', 'no-urls:a'], { cwd: p.dir, env });
    expect(allowed.code, allowed.stderr).toBe(0);
  });
});

describe('a secret pasted in a Role', () => {
  it('is an error in validate and plan; plan --out writes nothing', async () => {
    const em = await emulator();
    const p = await prodProject(em, '    []\n', { 'roles/a.md': roleText('a', 'd', `call with ${TOKEN} please`) });
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('policy:\n  plan:\n    []\n', ''));
    const validated = await runCli(['validate'], { cwd: p.dir, env });
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain('roles/a.md:5:11: secrets: content holds the value of PROD_TOKEN');
    const planned = await runCli(['plan', '--out', 'plan.json'], { cwd: p.dir, env });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('roles/a.md:5:11: secrets:');
    expect(planned.stdout + planned.stderr).not.toContain(TOKEN);
    await expect(p.read('plan.json')).rejects.toThrow();
  });

  it('a secret a variable puts in stops plan, and is an error in validate and lint, naming the tenant', async () => {
    const em = await emulator();
    const p = await prodProject(em, '    []\n', { 'roles/a.md': roleText('a', 'd', 'key ${vars.key}') });
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('policy:\n  plan:\n    []\n', 'vars: { key: AKIAIOSFODNN7EXAMPLE }\n'));
    const r = await runCli(['apply', '--auto-approve'], { cwd: p.dir, env });
    expect(r.code).toBe(1);
    const line = 'roles/a.md:5:5: secrets: content holds an AWS access key id: a Role is sent to the tenant and shown in plans; remove it (roleflow never writes it to a file) (once ${vars} are put in for tenant prod-eu)';
    expect(r.stderr).toContain(line);
    expect(em.roles()).toEqual([]);
    const validated = await runCli(['validate'], { cwd: p.dir, env });
    expect(validated.code).toBe(1);
    expect(validated.stderr.split('\n')).toContain(line);
    const linted = await runCli(['lint', '--format', 'json'], { cwd: p.dir, env });
    expect(linted.code).toBe(1);
    expect(JSON.parse(linted.stdout)).toMatchObject({ findings: [{ rule: 'secrets', level: 'error', file: 'roles/a.md', line: 5, column: 5 }] });
  });

  it('a secret a variable puts in is said once where the role file holds it too', async () => {
    const em = await emulator();
    const p = await prodProject(em, '    []\n', { 'roles/a.md': roleText('a', 'd', 'AKIAIOSFODNN7EXAMPLE ${vars.key}') });
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('policy:\n  plan:\n    []\n', 'vars: { key: plain }\n'));
    const validated = await runCli(['validate'], { cwd: p.dir, env });
    expect(validated.code).toBe(1);
    expect(validated.stderr.match(/secrets:/g)).toHaveLength(1);
  });

  it('a secret on the tenant (a Role\'s current content) is never written by plan --out', async () => {
    const em = await emulator();
    await seed(em, 'a', 'd', `old text with AKIAIOSFODNN7EXAMPLE`);
    const p = await prodProject(em, '    []\n', { 'roles/a.md': roleText('a', 'd', 'new text') });
    await p.write('roleflow.config.yaml', (await p.read('roleflow.config.yaml')).replace('policy:\n  plan:\n    []\n', ''));
    const r = await runCli(['plan', '--out', 'plan.json'], { cwd: p.dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it would hold a secret in the clear (Role "a": its content on the tenant holds an AWS access key id)');
    await expect(p.read('plan.json')).rejects.toThrow();
  });
});
