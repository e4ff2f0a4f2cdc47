import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const binPath = join(repoRoot, 'dist', 'bin.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built `roleflow` as a process, the way a user does (needs `npm run build`). */
export function runBin(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...opts.env })) {
      if (v !== undefined) env[k] = v;
    }
    const child = execFile(
      process.execPath,
      [binPath, ...args],
      { cwd: opts.cwd ?? repoRoot, env, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? 1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/**
 * The built `roleflow` as a process, sent `signal` once, `delayMs` after stdout first includes
 * `when`; killed after `killAfterMs` (a code of null then: the signal did not end it).
 */
export function signalledBin(
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; when: string; signal: NodeJS.Signals; delayMs?: number; killAfterMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [binPath, ...args], { cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!signalled && stdout.includes(opts.when)) {
      signalled = true;
      setTimeout(() => child.kill(opts.signal), opts.delayMs ?? 0);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 25_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Run the CLI in-process with captured streams (fast; for command behaviour). `interruptWhen`: the
 * user asks the command to stop (Ctrl-C) `interruptAfterMs` after stdout first matches it.
 */
export async function runCli(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; tty?: boolean; interruptWhen?: RegExp; interruptAfterMs?: number } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  let interrupt: () => void = () => undefined;
  const shutdown = new Promise<void>((resolve) => (interrupt = resolve));
  stdout.on('data', (c: Buffer) => {
    chunks.out.push(c);
    if (opts.interruptWhen?.test(Buffer.concat(chunks.out).toString('utf8'))) setTimeout(interrupt, opts.interruptAfterMs ?? 0);
  });
  stderr.on('data', (c: Buffer) => chunks.err.push(c));
  const code = await main(args, {
    env: { ...opts.env },
    stdin: process.stdin,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    colorDepth: 1,
    cwd: opts.cwd ?? repoRoot,
    stdinIsTTY: opts.tty ?? false,
    stdoutIsTTY: opts.tty ?? false,
    stderrIsTTY: opts.tty ?? false,
    waitForShutdown: () => shutdown,
  });
  return { code, stdout: Buffer.concat(chunks.out).toString('utf8'), stderr: Buffer.concat(chunks.err).toString('utf8') };
}

/** A fresh temp folder, removed by the returned cleanup. */
export async function tempDir(prefix = 'roleflow-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
