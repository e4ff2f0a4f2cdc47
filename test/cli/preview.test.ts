import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import type { PreviewDocument } from '../../src/core/preview/index.js';
import { call } from '../helpers/emulator.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { main } from '../../src/cli.js';
import { emulator, mutations, project, roleText, tenantState, TOKEN, type Project } from './roles-kit.js';
import { noToken } from './tenants-kit.js';
import { compileSchema } from '../../src/core/text/schema.js';
import { readJournal } from '../../src/core/apply/history/index.js';
import { loadSchema } from '../../src/files/package-root.js';

const validPreview = compileSchema(loadSchema('preview'));

const git = promisify(execFile);

const ECHO_TEST = `flow: echo\ntransport: ws\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].word", equals: hi }\n`;

interface Repo {
  p: Project;
  em: RunningEmulator;
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  commit(message: string): Promise<string>;
}

/**
 * A git repository whose config has the tenants `preview` (marked preview: true) and `staging`
 * (not marked), both the same emulator on 127.0.0.1; `files` committed as the first commit.
 */
async function repo(files: Record<string, string>, options: EmulatorOptions = {}, config = ''): Promise<Repo> {
  const em = await emulator(options);
  const tenant = (extra: string) => `{ base_url: "${em.baseUrl}", ws_url: "${em.wsUrl}"${extra} }`;
  const p = await project({
    'roleflow.config.yaml': `tenants:\n  preview: ${tenant(', preview: true')}\n  staging: ${tenant('')}\n${config}`,
    'flows/echo.yaml': ECHO_TEST,
    ...files,
  });
  const run = (args: string[]) => git('git', args, { cwd: p.dir });
  await run(['init', '-q', '-b', 'main']);
  await run(['config', 'user.email', 'dev@example.com']);
  await run(['config', 'user.name', 'dev']);
  const commit = async (message: string) => {
    await run(['add', '-A']);
    await run(['commit', '-q', '--allow-empty', '-m', message]);
    return (await run(['rev-parse', 'HEAD'])).stdout.trim();
  };
  await commit('first');
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN, ...env } });
  return { p, em, cli, commit };
}

function doc(r: CliResult): PreviewDocument {
  return JSON.parse(r.stdout) as PreviewDocument;
}

describe('roleflow preview', () => {
  it('applies the base commit\'s Roles, then the work tree\'s, runs the tests on each, and leaves the work tree\'s on the tenant', async () => {
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.'), 'roles/gone.md': roleText('gone', 'old', 'Old.') });
    const base = await r.commit('second');
    await r.p.write('roles/a.md', roleText('a', 'first', 'You are A, changed.'));
    await r.p.write('roles/b.md', roleText('b', 'new', 'You are B.'));
    await git('git', ['rm', '-q', 'roles/gone.md'], { cwd: r.p.dir });
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const d = doc(result);
    expect(validPreview(d), JSON.stringify(validPreview.errors)).toBe(true);
    expect(d).toMatchObject({ format_version: 1, tenant: 'preview', base: { ref: 'main', commit: base }, head: { commit: base, dirty: true }, contaminated: false, executions: 2 });
    expect(d.tests).toEqual([expect.objectContaining({ file: 'flows/echo.yaml', name: 'echoes', transport: 'ws', base: expect.objectContaining({ verdict: 'passed' }), head: expect.objectContaining({ verdict: 'passed' }), outputs_changed: false })]);
    expect(d.summary).toMatchObject({ tests: 1, regressions: 0, unchanged: 1 });
    // The base was applied with prune (gone made, nothing else), then the head (a updated, b made, gone deleted).
    expect(mutations(r.em)).toEqual(['POST /admin/roles/create', 'POST /admin/roles/create', 'POST /admin/roles/update', 'POST /admin/roles/create', 'POST /admin/policies/delete']);
    expect(tenantState(r.em)).toEqual(['a: first / You are A, changed.', 'b: new / You are B.']);
    // Both applies are journalled as preview's, each with the commit whose files it applied.
    const { records } = readJournal(await r.p.read('.roleflow/history/preview.jsonl'));
    expect(records.map((x) => [x.command, x.preview, x.commit, x.dirty, x.status])).toEqual([['preview', true, base, undefined, 'completed'], ['preview', true, base, true, 'completed']]);
    expect(result.stderr).toContain('preview on tenant "preview": 2 flow executions (1 test × transport, on each side)');
    expect(noToken(result)).toBe(true);
    // Text by default: both sides named, the summary line.
    const text = await r.cli(['preview', '--tenant', 'preview', '--base', base.slice(0, 8)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`base  ${base.slice(0, 8)} (${base.slice(0, 12)})`);
    expect(text.stdout).toContain('1 test × transport: 0 regressions');
  });

  it('shows the test whose Role changed going from passed to failed, with its outputs\' diff, the other unchanged; --fail-on-regression exits 3', async () => {
    const flows = {
      flows: {
        greet: { steps: [{ service: 'llm', role: 'greeter' }], outputs: { results: [{ reply: '${role.greeter.description}, ${name}' }] } },
        echo: { steps: [{ service: 'echo' }], outputs: { results: ['${*}'] } },
      },
    };
    const greetTest = `flow: greet\ntransport: ws\ntests:\n  - name: greets warmly\n    inputs: { name: Ada }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].reply", contains: Hello }\n`;
    const r = await repo({ 'roles/greeter.md': roleText('greeter', 'Hello', 'You greet people.'), 'flows/greet.yaml': greetTest }, { flows });
    await r.p.write('roles/greeter.md', roleText('greeter', 'Go away', 'You greet people.'));
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const byName = new Map(doc(result).tests.map((t) => [t.name, t]));
    expect(byName.get('greets warmly')).toMatchObject({ base: { verdict: 'passed' }, head: { verdict: 'failed' }, outputs_changed: true });
    expect(byName.get('greets warmly')!.outputs_diff).toContain('-      "reply": "Hello, Ada"\n+      "reply": "Go away, Ada"');
    expect(byName.get('echoes')).toMatchObject({ base: { verdict: 'passed' }, head: { verdict: 'passed' }, outputs_changed: false });
    const text = await r.cli(['preview', '--tenant', 'preview', '--base', 'main', '--fail-on-regression']);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^REGRESSION flows\/greet\.yaml:4  flows\/greet\.yaml > greets warmly \[ws\]  passed → failed$/m);
    const html = await r.cli(['preview', '--tenant', 'preview', '--base', 'main', '--reporter', 'html=preview.html']);
    expect(html.code).toBe(0);
    expect(await r.p.read('preview.html')).toContain('<h4>Head: <span class="fail">failed</span></h4>');
  });

  it('refuses, with nothing sent, a tenant not marked preview: true, or no --tenant (exit 4)', async () => {
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.') });
    for (const args of [['--tenant', 'staging'], [], ['--tenant', 'local']]) {
      const result = await r.cli(['preview', '--base', 'main', ...args]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/preview: true/);
      expect(result.stdout).toBe('');
    }
    expect(r.em.requests()).toEqual([]);
  });

  it('refuses a run of more executions than preview.max_executions, before anything is sent', async () => {
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.') }, {}, 'preview: { max_executions: 3 }\n');
    await r.p.write('flows/echo.yaml', ECHO_TEST.replace('inputs:', 'repeat: 2\n    inputs:'));
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('preview would start 4 flow executions on tenant "preview" (2 a side), more than preview.max_executions (3)');
    expect(mutations(r.em)).toEqual([]);
  });

  it('says in one line that a --base git does not know is no commit (exit 1), and what it needs', async () => {
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.') });
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'origin/nope']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: "origin/nope" is not a commit of this repository (git rev-parse): name a branch, tag or sha that git knows (in CI, fetch it first: actions/checkout with fetch-depth: 0)\n');
    expect(r.em.requests()).toEqual([]);
    const neither = await r.cli(['preview', '--tenant', 'preview']);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('preview needs a base: --base REF (a git ref) or --base-report FILE');
  });

  it('reads the base\'s role files as the commit holds them: a base file that does not parse stops it, named REF:path', async () => {
    const r = await repo({ 'roles/a.md': '---\nname: a\ndescriptio: typo\n---\nYou are A.\n' });
    await r.p.write('roles/a.md', roleText('a', 'fixed', 'You are A.'));
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^main:roles\/a\.md:3:1: unknown key "descriptio"/m);
    expect(mutations(r.em)).toEqual([]);
  });

  it('takes the base from an earlier report of the same tenant with --base-report, and runs only the head', async () => {
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.') });
    expect((await r.cli(['apply', '--tenant', 'preview', '--auto-approve'])).code).toBe(0);
    expect((await r.cli(['test', '--tenant', 'preview', '--reporter', 'json=base.json'])).code).toBe(0);
    const result = await r.cli(['preview', '--tenant', 'preview', '--base-report', 'base.json', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(doc(result)).toMatchObject({ base: { ref: null, report: 'base.json' }, executions: 1, summary: { tests: 1, unchanged: 1 } });
    expect(result.stderr).toMatch(/base: base\.json, a run at commit [0-9a-f]{40}, \d+ minutes? old/);
    // A report of another tenant is no base.
    expect((await r.cli(['test', '--tenant', 'staging', '--reporter', 'json=staging.json'])).code).toBe(0);
    const other = await r.cli(['preview', '--tenant', 'preview', '--base-report', 'staging.json']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('staging.json is a report of tenant "staging", not of "preview"');
  });

  it('marks the run contaminated (exit 1) when someone else changes a Role while the tests run', async () => {
    const slow = { flows: { flows: { echo: { steps: [{ service: 'echo', latency: '600ms' }], outputs: { results: ['${*}'] } } } } };
    const r = await repo({ 'roles/a.md': roleText('a', 'first', 'You are A.') }, slow);
    await r.p.write('flows/echo.yaml', 'flow: echo\ntransport: https\ntests:\n  - name: echoes\n    inputs: { word: hi }\n    expect: { steps: { count: 1 } }\n');
    const running = r.cli(['preview', '--tenant', 'preview', '--base', 'main', '--json']);
    // Once the base's test has started, someone edits the preview tenant by hand.
    await until(() => r.em.requests().some((q) => q.path === '/flow/echo'));
    const a = r.em.roles().find((role) => role.name === 'a')!;
    expect((await call(r.em, 'POST', '/admin/roles/update', { body: { id: a.id, name: 'a', description: 'hand edit', content: 'You are A.' } })).status).toBe(200);
    const result = await running;
    expect(result.code).toBe(1);
    expect(validPreview(doc(result))).toBe(true);
    expect(doc(result)).toMatchObject({ contaminated: true });
    expect(doc(result).contamination[0]).toMatch(/^base: Role "a" changed \(description\)$/);
    expect(result.stderr).toContain('preview: contaminated');
  });
  it('refuses, with nothing sent, a head whose plan a guard refuses once the base is applied (a protected Role it changes), exit 4', async () => {
    const r = await repo({ 'roles/keep.md': roleText('keep', 'base', 'Kept.'), 'roles/a.md': roleText('a', 'first', 'You are A.') }, {}, 'roles: { protect: ["keep"] }\n');
    await git('git', ['rm', '-q', 'roles/keep.md'], { cwd: r.p.dir });
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toBe('error: the head\'s plan, once the base is applied, is refused by Role "keep" is protected (protect: "keep"): refusing to delete it\n');
    expect(result.stdout).toBe('');
    expect(mutations(r.em)).toEqual([]);
  });

  it('refuses, with nothing sent, a head that deletes more Roles than max_deletes once the base is applied, exit 4', async () => {
    const roles = Object.fromEntries(['a', 'b', 'c'].map((n) => [`roles/${n}.md`, roleText(n, 'base', `You are ${n}.`)]));
    const r = await repo(roles, {}, 'roles: { max_deletes: 1 }\n');
    await git('git', ['rm', '-q', 'roles/b.md', 'roles/c.md'], { cwd: r.p.dir });
    const result = await r.cli(['preview', '--tenant', 'preview', '--base', 'main']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toBe("error: the head's plan, once the base is applied, is refused by 2 deletes planned, more than max_deletes (1): refusing the plan\n");
    expect(mutations(r.em)).toEqual([]);
  });

  it('ends with 130 when interrupted while the base is applied, and says in one line that the tenant holds part of the base\'s Roles', async () => {
    const roles = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => [`roles/${n}.md`, roleText(n, 'base', `You are ${n}.`)]));
    const r = await repo(roles, { latencyMs: 150 }, 'roles: { concurrency: 1 }\n');
    await r.p.write('roles/a.md', roleText('a', 'head', 'You are a.'));
    let interrupt: () => void = () => undefined;
    const shutdown = new Promise<void>((resolve) => (interrupt = resolve));
    const out = { stdout: new PassThrough(), stderr: new PassThrough() };
    let stderr = '';
    out.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let stdout = '';
    out.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const running = main(['preview', '--tenant', 'preview', '--base', 'main'], {
      env: { ROLEFLOW_TOKEN: TOKEN },
      stdin: process.stdin,
      stdout: out.stdout as unknown as NodeJS.WriteStream,
      stderr: out.stderr as unknown as NodeJS.WriteStream,
      colorDepth: 1,
      cwd: r.p.dir,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      waitForShutdown: () => shutdown,
    });
    // Ctrl-C once the base's second Role has been created: four are left to create.
    await until(() => mutations(r.em).length >= 2);
    interrupt();
    const code = await running;
    expect(code, stderr).toBe(130);
    const made = tenantState(r.em);
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(made.length).toBeLessThan(6);
    expect(r.em.requests().some((q) => q.path.startsWith('/flow/') || q.path === '/ws')).toBe(false);
    expect(stderr).not.toMatch(/not_started|contaminated|\n\s+at /);
    // What the comparison shows is said to be cut short: no test ran on either side.
    expect(stdout).toMatch(/^roleflow preview — tenant preview {2}INTERRUPTED$/m);
    expect(stdout).toContain('Interrupted: the tests that did not run on a side show as skipped or not in it, so this comparison is incomplete.\n');
    expect(stderr).toContain(`Interrupted: tenant "preview" holds part of the base's Roles (main), not the work tree's: apply them (roleflow apply --tenant preview) or run preview again\n`);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
