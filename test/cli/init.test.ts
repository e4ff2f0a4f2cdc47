import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { lint } from '../helpers/actionlint.js';
import { runBin, tempDir } from '../helpers/cli.js';

async function emptyRepo(): Promise<string> {
  const { dir, cleanup } = await tempDir('roleflow-init-');
  onTestFinished(cleanup);
  return dir;
}

const read = (dir: string, rel: string): Promise<string> => readFile(join(dir, rel), 'utf8');

describe('roleflow init', () => {
  it('scaffolds an empty folder so that validate, plan, apply and test pass against the embedded tenant, the test tied to the Role', async () => {
    const dir = await emptyRepo();
    const init = await runBin(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    for (const file of ['roleflow.config.yaml', 'roles/example-assistant.md', 'flows/example.yaml', '.github/workflows/roleflow.yml', '.vscode/settings.json', '.gitignore']) {
      expect(init.stdout).toMatch(new RegExp(`^written +${file.replace(/[.*/]/g, '\\$&')}$`, 'm'));
    }
    expect(await read(dir, '.gitignore')).toBe('.roleflow/\nnode_modules/\n');
    expect(await read(dir, 'roleflow.config.yaml')).toMatch(/^# yaml-language-server: \$schema=\.\/node_modules\/roleflow\/schemas\/config\.schema\.json$/m);
    expect(await read(dir, 'flows/example.yaml')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/roleflow\/schemas\/flow-test\.schema\.json$/m);

    expect(await runBin(['validate'], { cwd: dir })).toEqual({ code: 0, stdout: '1 role file and 1 flow test file are valid.\n', stderr: '' });
    const plan = await runBin(['plan', '--detailed-exitcode'], { cwd: dir });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('+ create example-assistant');
    // The example flow test runs with the example Role: before it is applied, its step fails.
    const early = await runBin(['test'], { cwd: dir });
    expect(early.code).toBe(3);
    expect(early.stdout).toContain('Role "example-assistant" not found on the tenant (used by step "llm"): apply the role files first (roleflow apply)');
    expect((await runBin(['apply', '--auto-approve'], { cwd: dir })).code).toBe(0);
    expect((await runBin(['plan', '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    const test = await runBin(['test'], { cwd: dir });
    expect(test.code).toBe(0);
    expect(test.stdout).toContain('Tests: 1 passed, 0 failed');

    // A Role change, applied, changes the result.
    const role = join(dir, 'roles/example-assistant.md');
    await writeFile(role, (await read(dir, 'roles/example-assistant.md')).replace(/^description: .*$/m, 'description: Answers at length'));
    expect((await runBin(['apply', '--auto-approve'], { cwd: dir })).code).toBe(0);
    const changed = await runBin(['test'], { cwd: dir });
    expect(changed.code).toBe(3);
    expect(changed.stdout).toContain('results[0].role: expected to equal "Answers briefly, in the language of the question", got "Answers at length"');
  });

  it('writes a workflow that passes actionlint: plan and tests on pull requests, one apply at a time, a drift check', async () => {
    const dir = await emptyRepo();
    expect((await runBin(['init', '--tenant', 'staging', '--base-url', 'https://flows.example.com/t/acme'], { cwd: dir })).code).toBe(0);
    const text = await read(dir, '.github/workflows/roleflow.yml');
    expect(await lint('roleflow.yml', text)).toEqual([]);
    const workflow = parse(text) as { jobs: Record<string, { if: string; concurrency?: unknown; permissions?: unknown; steps: { with?: Record<string, string>; env?: Record<string, string> }[] }> };
    expect(Object.keys(workflow.jobs)).toEqual(['plan-and-test', 'apply', 'drift']);
    expect(workflow.jobs['apply']!.concurrency).toEqual({ group: 'roleflow-apply-staging', 'cancel-in-progress': false });
    const apply = workflow.jobs['apply']!.steps.find((s) => s.with?.['command'] === 'apply')!;
    expect(apply.with?.['tenant']).toBe('staging');
    expect(apply.env).toEqual({ ROLEFLOW_TOKEN_STAGING: '${{ secrets.ROLEFLOW_TOKEN_STAGING }}' });
    // The drift check tells a hand edit (exit 5, an issue) from a merge not applied (exit 2), with the journal the tenant keeps.
    expect(workflow.jobs['drift']!.steps.find((s) => s.with?.['command'] === 'drift')?.with).toMatchObject({ args: '--detailed-exitcode', notify: 'issue' });
    expect(workflow.jobs['drift']!.permissions).toEqual({ contents: 'read', issues: 'write' });
    // The config names the tenant and where its token comes from, and still validates.
    const config = parse(await read(dir, 'roleflow.config.yaml')) as { default_tenant: string; tenants: Record<string, unknown>; history?: unknown };
    expect(config.default_tenant).toBe('local');
    expect(config.history).toEqual({ store: 'tenant' });
    expect(config.tenants).toEqual({ staging: { base_url: 'https://flows.example.com/t/acme', token_env: 'ROLEFLOW_TOKEN_STAGING' } });
    expect((await runBin(['validate'], { cwd: dir })).code).toBe(0);
  });

  it('without a real tenant, writes a pull-request workflow only: plan, apply to the embedded tenant, tests; no apply on merge, no drift', async () => {
    const dir = await emptyRepo();
    expect((await runBin(['init'], { cwd: dir })).code).toBe(0);
    const text = await read(dir, '.github/workflows/roleflow.yml');
    expect(await lint('roleflow.yml', text)).toEqual([]);
    const workflow = parse(text) as { on: Record<string, unknown>; jobs: Record<string, { steps: { with?: Record<string, string> }[] }> };
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(Object.keys(workflow.jobs)).toEqual(['checks']);
    expect(workflow.jobs['checks']!.steps.flatMap((s) => (s.with ? [`${s.with['command']} ${s.with['tenant']}`] : []))).toEqual(['plan local', 'apply local', 'test local']);
    expect(text).toContain('npx roleflow init --tenant NAME --base-url URL');
    // Adding a real tenant replaces that workflow while it is as init wrote it.
    const added = await runBin(['init', '--tenant', 'staging', '--base-url', 'https://flows.example.com/t/acme'], { cwd: dir });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^overwritten +\.github\/workflows\/roleflow\.yml +\(init's workflow for the embedded tenant, unedited: replaced by the one for tenant "staging"\)$/m);
    // The summary line does not contradict the list above it.
    expect(added.stderr).toMatch(/^Added tenant "staging" to roleflow\.config\.yaml\. To test/m);
    expect(Object.keys((parse(await read(dir, '.github/workflows/roleflow.yml')) as { jobs: object }).jobs)).toEqual(['plan-and-test', 'apply', 'drift']);
  });

  it('with --preview-tenant, marks the tenant preview: true and writes a preview job, queued per preview tenant, that passes actionlint', async () => {
    const dir = await emptyRepo();
    const r = await runBin(['init', '--tenant', 'preview', '--base-url', 'https://flows.example.com/t/preview', '--preview-tenant', 'preview'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const text = await read(dir, '.github/workflows/roleflow.yml');
    expect(await lint('roleflow.yml', text)).toEqual([]);
    type Job = { if: string; concurrency?: unknown; steps: { uses?: string; with?: Record<string, string | number | boolean>; env?: Record<string, string> }[] };
    const jobs = (parse(text) as { jobs: Record<string, Job> }).jobs;
    expect(Object.keys(jobs)).toEqual(['plan-and-test', 'apply', 'drift', 'preview']);
    const job = jobs['preview']!;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job.concurrency).toEqual({ group: 'roleflow-preview-preview', 'cancel-in-progress': false });
    expect(job.steps[0]).toEqual({ uses: 'actions/checkout@v5', with: { 'fetch-depth': 0 } });
    expect(job.steps[1]).toMatchObject({ with: { command: 'preview', tenant: 'preview', 'fail-on-regression': true }, env: { ROLEFLOW_TOKEN_PREVIEW: '${{ secrets.ROLEFLOW_TOKEN_PREVIEW }}' } });
    expect((parse(await read(dir, 'roleflow.config.yaml')) as { tenants: Record<string, unknown> }).tenants['preview']).toMatchObject({ preview: true });
    expect((await runBin(['validate'], { cwd: dir })).code).toBe(0);
    // A second tenant added later keeps the preview job: the config marks the preview tenant.
    const workflow = await read(dir, '.github/workflows/roleflow.yml');
    expect((await runBin(['init', '--tenant', 'prod', '--base-url', 'https://flows.example.com/t/prod'], { cwd: dir })).code).toBe(0);
    expect(await read(dir, '.github/workflows/roleflow.yml')).toBe(workflow);
  });

  it('previews on the embedded tenant with --preview-tenant local, and refuses a preview tenant no config has', async () => {
    const dir = await emptyRepo();
    expect((await runBin(['init', '--preview-tenant', 'local'], { cwd: dir })).code).toBe(0);
    expect((parse(await read(dir, 'roleflow.config.yaml')) as { local: unknown }).local).toEqual({ preview: true });
    const jobs = (parse(await read(dir, '.github/workflows/roleflow.yml')) as { jobs: Record<string, { concurrency?: unknown }> }).jobs;
    expect(Object.keys(jobs)).toEqual(['checks', 'preview']);
    expect(jobs['preview']!.concurrency).toEqual({ group: 'roleflow-preview-local', 'cancel-in-progress': false });
    const other = await emptyRepo();
    const refused = await runBin(['init', '--preview-tenant', 'staging'], { cwd: other });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('error: --preview-tenant staging: there is no config with tenant "staging" yet: add it in the same run with --tenant staging --base-url URL (or preview on the embedded tenant: --preview-tenant local)\n');
    expect(await readdir(other)).toEqual([]);
  });

  it('never overwrites without --force, and merges into editor settings and .gitignore', async () => {
    const dir = await emptyRepo();
    await mkdir(join(dir, 'roles'), { recursive: true });
    await mkdir(join(dir, '.vscode'), { recursive: true });
    await writeFile(join(dir, 'roles/example-assistant.md'), 'mine\n');
    await writeFile(join(dir, '.vscode/settings.json'), JSON.stringify({ 'editor.tabSize': 4, 'yaml.schemas': { 'other.json': ['x.yaml'] } }));
    await writeFile(join(dir, '.gitignore'), 'node_modules');

    const first = await runBin(['init'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^left +roles\/example-assistant\.md +\(exists \(--force overwrites it\)\)$/m);
    expect(first.stdout).toMatch(/^merged +\.vscode\/settings\.json/m);
    expect(first.stdout).toMatch(/^merged +\.gitignore/m);
    expect(await read(dir, 'roles/example-assistant.md')).toBe('mine\n');
    const settings = JSON.parse(await read(dir, '.vscode/settings.json')) as Record<string, Record<string, unknown>>;
    expect(settings['editor.tabSize']).toBe(4);
    expect(Object.keys(settings['yaml.schemas']!)).toEqual([
      'other.json',
      './node_modules/roleflow/schemas/config.schema.json',
      './node_modules/roleflow/schemas/flow-test.schema.json',
    ]);
    expect(await read(dir, '.gitignore')).toBe('node_modules\n.roleflow/\n');

    const again = await runBin(['init'], { cwd: dir });
    expect(again.stdout).not.toMatch(/^(written|merged|overwritten)/m);
    expect(await read(dir, '.gitignore')).toBe('node_modules\n.roleflow/\n');

    const forced = await runBin(['init', '--force'], { cwd: dir });
    expect(forced.stdout).toMatch(/^overwritten +roles\/example-assistant\.md$/m);
    expect(await read(dir, 'roles/example-assistant.md')).toContain('name: example-assistant');
  });

  it('leaves editor settings with comments alone, saying what to add by hand', async () => {
    const dir = await emptyRepo();
    await mkdir(join(dir, '.vscode'), { recursive: true });
    const jsonc = '{\n  // mine\n  "editor.tabSize": 2,\n}\n';
    await writeFile(join(dir, '.vscode/settings.json'), jsonc);
    const r = await runBin(['init', 'sub/..'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^left +\.vscode\/settings\.json +\(not plain JSON/m);
    expect(await read(dir, '.vscode/settings.json')).toBe(jsonc);
  });

  it('refuses a tenant without a safe base URL in one line, writing nothing', async () => {
    const dir = await emptyRepo();
    const r = await runBin(['init', '--tenant', 'prod', '--base-url', 'http://flows.example.com'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: --base-url http://flows.example.com: not a https:// URL (plain http:// only to loopback)\n');
    expect(await readdir(dir)).toEqual([]);
  });

  it('adds a second tenant to an existing config, keeping its comments, and says so; validate accepts it', async () => {
    const dir = await emptyRepo();
    const first = await runBin(['init', '--tenant', 'staging', '--base-url', 'https://flows.example.com/t/staging'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const before = await read(dir, 'roleflow.config.yaml');
    const workflow = await read(dir, '.github/workflows/roleflow.yml');

    const second = await runBin(['init', '--tenant', 'production', '--base-url', 'https://flows.example.com/t/prod'], { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^merged +roleflow\.config\.yaml +\(added tenant "production", its token from ROLEFLOW_TOKEN_PRODUCTION\)$/m);
    expect(second.stderr).toContain('Added tenant "production" to roleflow.config.yaml; the other files were left as they are.');
    expect(second.stderr).toContain('docs/workflows/roleflow-promote.yml and roleflow-environments.yml');
    const after = await read(dir, 'roleflow.config.yaml');
    // Every line of the file as it was (comments and their alignment), plus the tenant's.
    expect(after.split('\n').filter((l) => !before.split('\n').includes(l))).toEqual([
      '  production:',
      '    base_url: https://flows.example.com/t/prod',
      '    token_env: ROLEFLOW_TOKEN_PRODUCTION',
    ]);
    expect(Object.keys((parse(after) as { tenants: object }).tenants)).toEqual(['staging', 'production']);
    expect(await read(dir, '.github/workflows/roleflow.yml')).toBe(workflow);
    const validate = await runBin(['validate'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(0);

    const again = await runBin(['init', '--tenant', 'production', '--base-url', 'https://flows.example.com/t/other'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('note: tenant "production" not added: it already has tenant "production"');
    expect(await read(dir, 'roleflow.config.yaml')).toBe(after);
  });

  it('says clearly when it cannot add the tenant to a config it cannot edit', async () => {
    const dir = await emptyRepo();
    await writeFile(join(dir, 'roleflow.config.yaml'), 'tenants: [oops]\n');
    const r = await runBin(['init', '--tenant', 'production', '--base-url', 'https://flows.example.com/t/prod'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: tenant "production" not added: its tenants: is not a mapping. To add a tenant by hand, write it under tenants: in roleflow.config.yaml');
    expect(await read(dir, 'roleflow.config.yaml')).toBe('tenants: [oops]\n');
  });
});
