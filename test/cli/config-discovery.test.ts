import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runBin, tempDir } from '../helpers/cli.js';

const ROLE = (name: string): string => `---\nname: ${name}\ndescription: d\n---\ncontent\n`;

/** A folder holding these files (`.git/` as a folder marks a repository root). */
async function tree(files: Record<string, string>): Promise<string> {
  const { dir, cleanup } = await tempDir('roleflow-discovery-');
  onTestFinished(cleanup);
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, rel);
    if (rel.endsWith('/')) await mkdir(abs, { recursive: true });
    else {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, text);
    }
  }
  return dir;
}

describe('finding the config', () => {
  it('from a subfolder, uses the repository config above it, with its folders relative to the config', async () => {
    const dir = await tree({
      '.git/': '',
      'roleflow.config.yaml': 'roles: { dir: team/roles }\n',
      'team/roles/a.md': ROLE('a'),
      'team/roles/b.md': ROLE('b'),
      'docs/deep/x.txt': '',
    });
    const r = await runBin(['validate', '--json'], { cwd: join(dir, 'docs/deep') });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, role_files: 2 });
    const plan = await runBin(['plan'], { cwd: join(dir, 'docs/deep') });
    expect(plan.stdout).toContain('+ create a (../../team/roles/a.md)');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete.');
  });

  it('stops at the repository root: a config outside the repository is not read', async () => {
    const dir = await tree({ 'roleflow.config.yaml': 'roles: { dir: elsewhere }\n', 'repo/.git/': '', 'repo/roles/a.md': ROLE('a') });
    const r = await runBin(['validate', '--json'], { cwd: join(dir, 'repo') });
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, role_files: 1 });
  });

  it('ROLEFLOW_CONFIG names the config; --config wins over it; a missing one is one line', async () => {
    const dir = await tree({
      'ci.yaml': 'roles: { dir: ci-roles }\n',
      'ci-roles/a.md': ROLE('a'),
      'other.yaml': 'roles: { dir: other-roles }\n',
      'other-roles/b.md': ROLE('b'),
      'other-roles/c.md': ROLE('c'),
    });
    const viaEnv = await runBin(['validate', '--json'], { cwd: dir, env: { ROLEFLOW_CONFIG: 'ci.yaml' } });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ valid: true, role_files: 1 });
    const flagWins = await runBin(['validate', '--json', '--config', 'other.yaml'], { cwd: dir, env: { ROLEFLOW_CONFIG: 'ci.yaml' } });
    expect(JSON.parse(flagWins.stdout)).toMatchObject({ valid: true, role_files: 2 });
    const missing = await runBin(['validate'], { cwd: dir, env: { ROLEFLOW_CONFIG: 'nope.yaml' } });
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'error: config file nope.yaml not found (given with ROLEFLOW_CONFIG)\n' });
  });

  it('ROLEFLOW_TENANT picks the tenant; --tenant wins over it', async () => {
    const dir = await tree({ '.git/': '', 'roles/a.md': ROLE('a') });
    const viaEnv = await runBin(['plan'], { cwd: dir, env: { ROLEFLOW_TENANT: 'staging' } });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toBe('error: unknown tenant "staging"; known: local\n');
    const flagWins = await runBin(['plan', '--tenant', 'local'], { cwd: dir, env: { ROLEFLOW_TENANT: 'staging' } });
    expect(flagWins.code).toBe(0);
    expect(flagWins.stdout).toContain('Tenant local');
  });

  it('a mistyped tenant name gets a did-you-mean', async () => {
    const dir = await tree({ '.git/': '', 'roles/a.md': ROLE('a'), 'roleflow.config.yaml': 'tenants:\n  staging:\n    base_url: https://flows.example.com\n' });
    const r = await runBin(['plan', '--tenant', 'stagin'], { cwd: dir });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: unknown tenant "stagin" in roleflow.config.yaml (did you mean "staging"?); known: local, staging\n' });
  });
});
