import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../src/cli.js';
import { commandClasses } from '../../src/commands/index.js';
import { brokenLinks } from '../docs/markdown.js';
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

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/**
 * The project files `--help` names (docs/…, src/…, schemas/…, examples/…, bench/…, test/…,
 * emulator-flows.yaml, a folder's README.md): a reader looks for them in the package.
 */
function pathsCitedByHelp(): string[] {
  const cli = buildCli({ colors: false });
  return pathsCitedIn(commandClasses.map((command) => cli.usage(command, { detailed: true })));
}

/** The project files these texts name, as `pathsCitedByHelp` reads them. */
function pathsCitedIn(texts: string[]): string[] {
  const cited = texts.flatMap((t) => Array.from(t.matchAll(/(?:(?:docs|src|schemas|examples|bench|test|scripts|flows|roles)\/[\w./-]*\w|\bemulator-flows\.yaml)/g), (m) => m[0]));
  return [...new Set(cited.filter((p) => /\.(md|ya?ml|json|ts|mjs)$/.test(p) && (!/^(flows|roles)\//.test(p) || p.endsWith('/README.md'))))].sort();
}

describe('the npm package', () => {
  let packed: { dir: string; cleanup: () => Promise<void> };
  let tarball: string;
  beforeAll(async () => {
    packed = await tempDir('roleflow-pack-');
    // --ignore-scripts: the package is packed from the dist/ this run built (`prepare` would rebuild
    // it under the other tests' feet).
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', packed.dir], { cwd: repoRoot, timeout: 60_000 });
    tarball = (await readdir(packed.dir)).filter((f) => f.endsWith('.tgz'))[0]!;
  }, 90_000);
  afterAll(() => packed?.cleanup());

  it('ships every file its markdown links to, every heading they name, and what --help points to', async () => {
    expect(tarball).toBeDefined();
    const unpacked = join(packed.dir, 'unpacked');
    await mkdir(unpacked);
    await run('tar', ['-xzf', join(packed.dir, tarball), '-C', unpacked]);
    const root = join(unpacked, 'package');
    const files = await filesUnder(root);
    const markdown = files.filter((f) => f.endsWith('.md')).sort();
    // The README, every page of docs/ and the folders' READMEs the pages link to.
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/roles.md', 'docs/flow-tests.md', 'docs/configuration.md', 'flows/README.md', 'src/emulator/README.md']));
    const broken = [];
    for (const file of markdown) broken.push(...brokenLinks(root, file, await readFile(join(root, file), 'utf8')));
    expect(broken).toEqual([]);
    // A link to a file the package does not ship is caught: the check is not a no-op.
    expect(brokenLinks(root, 'docs/x.md', '[bench](../bench/README.md)')).toEqual(['docs/x.md:1: ../bench/README.md: no such file']);

    const cited = pathsCitedByHelp();
    expect(cited).toEqual(expect.arrayContaining(['src/emulator/README.md', 'schemas/report.schema.json']));
    expect(cited.filter((p) => !existsSync(join(root, p)))).toEqual([]);
    // The built-in flows file documents its format in its header: what it names ships too.
    const header = (await readFile(join(root, 'emulator-flows.yaml'), 'utf8')).split('\nflows:')[0]!;
    const named = pathsCitedIn([header]);
    expect(named).toContain('schemas/emulator-flows.schema.json');
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  }, 120_000);

  it('installs into an empty project, and works there with npx: --version, init, validate, plan, apply, test', async () => {
    const project = join(packed.dir, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'my-roles', version: '1.0.0', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', join(packed.dir, tarball)], { cwd: project, timeout: 120_000 });

    // The bundle (the CLI's entry, the embedded tenant's, their chunks) holds what the CLI runs: no
    // runtime dependency is installed with it; its licence and the bundled packages' notices are.
    expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['roleflow']);
    const shipped = await readdir(join(project, 'node_modules/roleflow'));
    expect(shipped).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist', 'schemas', 'docs']));
    expect((await readdir(join(project, 'node_modules/roleflow/dist'))).sort()).toEqual(['THIRD-PARTY-NOTICES.txt', 'bin.js', 'chunks', 'emulator']);
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
