import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Cli } from 'clipanion';
import { afterAll } from 'vitest';
import { buildCli, runCommand } from '../../src/cli.js';
import type { RoleflowContext } from '../../src/commands/base.js';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';

/** Simulated flows for the embedded tenant of these tests: small latencies, known values. */
export const EMULATOR_FLOWS = `
flows:
  greet:
    inputs: [name]
    steps:
      - { service: retriever, latency: 15 }
      - { service: llm, latency: 25 }
    outputs:
      results:
        - { greeting: "Hello \${name}" }
  echo:
    steps:
      - { service: echo, latency: 0 }
    outputs:
      results: ["\${*}"]
  broken:
    steps:
      - { service: fetch, latency: 5 }
      - { service: crash, latency: 5, fail: true }
    outputs:
      results: []
  sleepy:
    steps:
      - { service: sleeper, latency: 5000 }
    outputs:
      results: []
  hangs:
    steps:
      - { service: first, latency: 10 }
      - { service: stuck, latency: 3600s }
    outputs:
      results: [{ done: yes }]
`;

/** What `test` says on stderr of a suite's flows file. */
export const FLOWS_NOTE = 'note: the embedded tenant runs the flows of emulator-flows.yaml (local.flows_config), in place of the built-in ones';

/** Two passing tests of `greet`, over both transports by default. */
export const GREET = `flow: greet
defaults:
  until: { steps: 2, node: node-2 }
tests:
  - name: greets Ada
    inputs: { name: Ada }
    expect:
      outputs:
        - { path: "results[0].greeting", equals: Hello Ada }
      steps:
        sequence: [retriever, llm]
  - name: greets Grace
    inputs: { name: Grace }
    expect:
      outputs:
        - { path: "results[0].greeting", contains: Grace }
      steps: { count: 2 }
`;

/** One test whose output assertion fails (over WebSocket) and whose step budget fails (over HTTPS). */
export const GREET_FAILING = `flow: greet
defaults:
  until: { steps: 2, node: node-2 }
tests:
  - name: expects a wrong greeting
    inputs: { name: Linus }
    expect:
      outputs:
        - { path: "results[0].greeting", equals: Hi Linus }
      latency:
        steps: { llm: "< 10ms" }
`;

export interface Suite {
  dir: string;
  /** `roleflow test ARGS` in the suite's folder (or `cwd`). */
  test(args?: string[], opts?: { cwd?: string; env?: Record<string, string | undefined>; tty?: boolean }): Promise<CliResult>;
  run(args: string[], opts?: { cwd?: string; env?: Record<string, string | undefined>; tty?: boolean }): Promise<CliResult>;
  read(file: string): Promise<string>;
  write(file: string, text: string): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A temp folder with a config whose embedded tenant runs EMULATOR_FLOWS, and these files. */
export async function suite(files: Record<string, string>, config = ''): Promise<Suite> {
  const { dir, cleanup } = await tempDir('roleflow-test-');
  cleanups.push(cleanup);
  const write = async (file: string, text: string) => {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  };
  await write('emulator-flows.yaml', EMULATOR_FLOWS);
  await write('roleflow.config.yaml', `local: { flows_config: emulator-flows.yaml }\n${config}`);
  for (const [file, text] of Object.entries(files)) await write(file, text);
  // Every suite's embedded tenant runs EMULATOR_FLOWS, which `test` says once on stderr
  // (test-flows-note.test.ts checks it): its runs here leave that note out.
  const run: Suite['run'] = async (args, opts = {}) => {
    const r = await runCli(args, { cwd: dir, ...opts });
    return { ...r, stderr: r.stderr.replace(`${FLOWS_NOTE}\n`, '') };
  };
  return {
    dir,
    run,
    test: (args = [], opts = {}) => run(['test', ...args], opts),
    read: (file) => readFile(join(dir, file), 'utf8'),
    write,
  };
}

/**
 * `argv` run in-process by `cli` (default: roleflow's own) with captured streams and an empty
 * environment. `stopAtOnce`: a long-running command (serve) is asked to stop as soon as it waits.
 */
export async function runInProcess(argv: string[], opts: { cwd: string; cli?: Cli<RoleflowContext>; stopAtOnce?: boolean }): Promise<CliResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  const context = {
    env: {},
    stdin: process.stdin,
    stdout: out,
    stderr: err,
    colorDepth: 1,
    cwd: opts.cwd,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    waitForShutdown: () => (opts.stopAtOnce ? Promise.resolve() : new Promise<void>(() => undefined)),
  } as unknown as RoleflowContext;
  const code = await runCommand(opts.cli ?? buildCli({ colors: false }), argv, context);
  return { code, stdout, stderr };
}
