import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { repoRoot, tempDir } from '../helpers/cli.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `npx roleflow ARGS` in `cwd`, as a user of the installed package runs it. */
async function npx(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ROLEFLOW_TOKEN: undefined };
  try {
    const { stdout, stderr } = await run('npx', ['--no-install', 'roleflow', ...args], { cwd, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the npm package', () => {
  it('packs, installs into an empty project, and works there with npx: --version, init, validate, plan, apply, test', async () => {
    const packed = await tempDir('roleflow-pack-');
    onTestFinished(packed.cleanup);
    // --ignore-scripts: the package is packed from the dist/ this run built (`prepare` would rebuild
    // it under the other tests' feet).
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', packed.dir], { cwd: repoRoot, timeout: 60_000 });
    const [tarball] = (await readdir(packed.dir)).filter((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const project = join(packed.dir, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'my-roles', version: '1.0.0', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', join(packed.dir, tarball!)], { cwd: project, timeout: 120_000 });

    // One bundle holds what the CLI runs: no runtime dependency is installed with it, and the
    // benchmarks' emulator bundle is not shipped; its licence and the bundled packages' notices are.
    expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['roleflow']);
    const shipped = await readdir(join(project, 'node_modules/roleflow'));
    expect(shipped).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist', 'schemas', 'docs']));
    expect((await readdir(join(project, 'node_modules/roleflow/dist'))).sort()).toEqual(['THIRD-PARTY-NOTICES.txt', 'bin.cjs']);
    const version = await npx(project, ['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect((await npx(project, ['init'])).code).toBe(0);
    // The schema hints init wrote point at files the package holds.
    expect((await readdir(join(project, 'node_modules/roleflow/schemas'))).sort()).toEqual(
      expect.arrayContaining(['config.schema.json', 'flow-test.schema.json', 'plan.schema.json', 'role.schema.json']),
    );
    expect((await npx(project, ['validate'])).code).toBe(0);
    const plan = await npx(project, ['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    // The example flow test runs with the example Role: applied first, as init says.
    expect((await npx(project, ['apply', '--auto-approve'])).code).toBe(0);
    const test = await npx(project, ['test']);
    expect(test.code).toBe(0);
    expect(test.stdout).toContain('Tests: 1 passed, 0 failed');
  }, 180_000);
});
