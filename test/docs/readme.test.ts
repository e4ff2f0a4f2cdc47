import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ExitCode } from '../../src/core/exit-codes.js';
import { initFiles, initWorkflow } from '../../src/core/init/templates.js';
import { repoRoot, runCli, tempDir } from '../helpers/cli.js';
import { fencedBlocks, links, roleflowCommands } from './markdown.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The README's text from the heading `title` to the next heading of its level. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section "${title}"`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start + 1, end === -1 ? undefined : end + 1);
}

describe('the README', () => {
  it('is short, and starts with the two commands, word for word, in one code block', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const first = fencedBlocks(readme)[0]!;
    expect(first.lang).toBe('sh');
    expect(first.text.split('\n').filter((l) => l !== '').map((l) => l.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    expect(readme.slice(0, readme.indexOf('```'))).not.toMatch(/\n## /);
  });

  it('holds the one exit-code table, a row for each code roleflow exits with', () => {
    const rows = section('Exit codes')
      .split('\n')
      .map((l) => /^\| (\d+) \|/.exec(l)?.[1])
      .filter((c) => c !== undefined)
      .map(Number);
    expect(rows).toEqual(Object.values(ExitCode));
  });

  it('links every page of docs/', () => {
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const pages = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((p) => !linked.has(`docs/${p}`))).toEqual([]);
  });

  it("shows the files init writes as the first Role and flow test, and init's preview job", () => {
    const first = fencedBlocks(section('A first Role and flow test'));
    const written = new Map(initFiles({}).map((f) => [f.path, f.text]));
    expect(first.find((b) => b.lang === 'markdown')?.text).toBe(written.get('roles/example-assistant.md'));
    expect(first.find((b) => b.lang === 'yaml')?.text).toBe(written.get('flows/example.yaml'));
    const job = fencedBlocks(section('The pull-request workflow, with a preview tenant')).find((b) => b.lang === 'yaml')!;
    // The job the README's own init command writes.
    const init = fencedBlocks(section('The pull-request workflow, with a preview tenant')).filter((b) => b.lang === 'sh').flatMap(roleflowCommands).find((c) => c.argv[0] === 'init')!;
    expect(init.argv).toEqual(['init', '--tenant', 'preview', '--base-url', 'https://flows.example.com/t/acme-preview', '--preview-tenant', 'preview']);
    const workflow = initWorkflow({ tenant: { name: 'preview', baseUrl: 'https://flows.example.com/t/acme-preview' }, previewTenant: 'preview' });
    expect(workflow).toContain(job.text.split('\n').slice(1).join('\n'));
  });

  it("first Role and flow test: its commands do what it says — the test fails until the Role is applied, passes, then fails when the description changes", async () => {
    const { dir, cleanup } = await tempDir('roleflow-readme-');
    onTestFinished(cleanup);
    const blocks = fencedBlocks(section('A first Role and flow test'));
    const files = { 'roles/example-assistant.md': blocks.find((b) => b.lang === 'markdown')!.text, 'flows/example.yaml': blocks.find((b) => b.lang === 'yaml')!.text };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: { NO_COLOR: '1' } });
    const commands = blocks.filter((b) => b.lang === 'sh').flatMap(roleflowCommands);
    expect(commands.map((c) => c.argv[0])).toEqual(['validate', 'plan', 'test', 'apply', 'test']);
    const results = [];
    for (const { argv } of commands) results.push(await run(argv));
    expect(results.map((r) => r.code)).toEqual([0, 0, 3, 0, 0]);
    expect(results[0]!.stdout).toContain('1 role file and 1 flow test file are valid');
    expect(results[1]!.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    expect(results[2]!.stdout).toMatch(/Role "example-assistant" not found on the tenant .*apply the role files first/);
    expect(results[3]!.stdout).toContain('Apply complete: 1 created');
    expect(results[4]!.stdout).toContain('✓ flows/example.yaml > answers as the example-assistant Role [ws]');

    // "Now change the Role's description, apply again, and the test fails (exit 3)."
    const role = join(dir, 'roles/example-assistant.md');
    await writeFile(role, (await readFile(role, 'utf8')).replace(/^description: .*$/m, 'description: Answers at length'));
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    const after = await run(['test']);
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('got "Answers at length"');
  });
});
