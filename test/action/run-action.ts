import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { FIRST_HEAD_SHA, startGitHubStandin, type GitHubStandin } from './github-standin.js';

// Not from ../helpers/cli.js: that loads the CLI into the test process, and these tests only run the bundle.
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const bundlePath = join(repoRoot, 'action', 'dist', 'index.js');
export const REPOSITORY = 'acme/roles';
export const PR_NUMBER = 42;
/** Distinctive, so a leak anywhere is found by a plain search. */
export const GITHUB_TOKEN = 'ghs_STANDINtoken0123456789abcdefXYZ';
export const ROLEFLOW_TOKEN = 'rf_tenant_SECRET_9f8e7d6c5b4a';

export interface ActionRun {
  code: number;
  /** The step's log as the runner receives it. */
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Run the committed bundle as a runner does: `node action/dist/index.js` with the step's inputs
 * as INPUT_* variables, the event file, and GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files (fresh
 * for each run) under `runnerDir`. `workspace` is GITHUB_WORKSPACE; inputs are as in `with:`.
 */
export async function runAction(opts: {
  inputs: Record<string, string>;
  workspace: string;
  runnerDir: string;
  apiUrl: string;
  event?: 'pull_request' | 'push' | 'schedule';
  /** The pull request's head in the pull_request event (the stand-in's first head unless given). */
  headSha?: string;
  env?: Record<string, string>;
}): Promise<ActionRun> {
  const temp = join(opts.runnerDir, `step-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await mkdir(temp, { recursive: true });
  const eventName = opts.event ?? 'pull_request';
  const eventPath = join(temp, 'event.json');
  const payload =
    eventName === 'pull_request'
      ? { action: 'synchronize', number: PR_NUMBER, pull_request: { number: PR_NUMBER, head: { sha: opts.headSha ?? FIRST_HEAD_SHA } } }
      : { ref: 'refs/heads/main' };
  await writeFile(eventPath, JSON.stringify(payload));
  const outputFile = join(temp, 'output');
  const summaryFile = join(temp, 'summary.md');
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');

  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? temp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_API_URL: opts.apiUrl,
    GITHUB_SERVER_URL: 'https://github.invalid',
    GITHUB_RUN_ID: '777',
    GITHUB_SHA: 'fedcba9876543210fedcba9876543210fedcba98',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: temp,
    ROLEFLOW_TOKEN,
    // The runner's default for `github-token`, and the input as the runner names it.
    'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
    ...opts.env,
  };
  for (const [name, value] of Object.entries(opts.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;

  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bundlePath], { cwd: opts.workspace, env, timeout: 120_000, maxBuffer: 256 * 1024 * 1024 }, (error, out, err) => {
      const exit = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? -1 : 0;
      resolve({ code: exit, stdout: out, stderr: err });
    });
  });
  return { code, log: stdout + stderr, outputs: parseOutputs(await readFile(outputFile, 'utf8')), summary: await readFile(summaryFile, 'utf8') };
}

/** `name<<DELIM\nvalue\nDELIM\n` records, as the runner reads `$GITHUB_OUTPUT`. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!head) continue;
    const end = lines.indexOf(head[2]!, i + 1);
    if (end === -1) throw new Error(`output ${head[1]}: no closing delimiter`);
    outputs[head[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

/**
 * The log as the runner shows it: `::add-mask::` lines are commands the runner consumes (and
 * then masks their values), so they are dropped; every other line is what a reader would see.
 */
export function visibleLog(log: string): string {
  return log
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

/** A role file's text. */
export function roleFile(name: string, description: string, content: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${content}\n`;
}

/**
 * A flow test file for the embedded tenant's `echo` flow, which answers at once over WebSocket:
 * each test sends `{key: value}` and expects `expected` (default `value`) back, the line of its
 * assertion being 6 × its index + 9.
 */
export function echoFlowFile(tests: { name: string; key: string; value: string; expected?: string }[]): string {
  const body = tests.map(
    (t) =>
      `  - name: ${t.name}\n    inputs: { ${t.key}: ${t.value} }\n    until: { messages: 1 }\n    expect:\n      outputs:\n        - { path: "results[0].${t.key}", equals: ${t.expected ?? t.value} }\n`,
  );
  return `flow: echo\ntransport: ws\ntests:\n${body.join('')}`;
}

/** A fresh temp folder, removed by the returned cleanup. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** What a test file of the Action works with: the GitHub stand-in, a repository folder, and a way to run a step. */
export interface ActionTestbed {
  github: GitHubStandin;
  /** GITHUB_WORKSPACE: the checked-out repository. */
  workspace: string;
  /** A step of the Action in the workspace, on a pull request unless `event` says otherwise. */
  run(inputs: Record<string, string>, opts?: { event?: 'pull_request' | 'push'; headSha?: string; apiUrl?: string; env?: Record<string, string> }): Promise<ActionRun>;
}

/**
 * A fresh temp repository (filled by `setup`) and GitHub stand-in for the test file, made before
 * its first test and removed after its last.
 */
export function actionTestbed(prefix: string, setup: (workspace: string) => Promise<void>): ActionTestbed {
  let root: { dir: string; cleanup: () => Promise<void> } | undefined;
  const bed = {
    run: (inputs, opts = {}) =>
      runAction({ ...opts, inputs, workspace: bed.workspace, runnerDir: join(root!.dir, 'runner'), apiUrl: opts.apiUrl ?? bed.github.url }),
  } as ActionTestbed;
  beforeAll(async () => {
    root = await tempDir(prefix);
    bed.workspace = join(root.dir, 'repo');
    await mkdir(bed.workspace, { recursive: true });
    bed.github = await startGitHubStandin({ repository: REPOSITORY, token: GITHUB_TOKEN });
    await setup(bed.workspace);
  }, 60_000);
  afterAll(async () => {
    await bed.github?.close();
    await root?.cleanup();
  });
  return bed;
}
