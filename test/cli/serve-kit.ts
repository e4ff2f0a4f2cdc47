import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { binPath, repoRoot, type CliResult } from '../helpers/cli.js';
import { call, type Reply } from '../helpers/emulator.js';

/**
 * A private copy of the built CLI (`npm run build` first). Other engineers rebuild dist/ while
 * these tests run; a copy taken once keeps a rebuild from pulling files out from under a server.
 * The bundle holds its dependencies; package.json, schemas/ and the flows file complete it.
 */
export async function snapshotBin(): Promise<{ bin: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'roleflow-bin-'));
  for (let tries = 0; ; tries++) {
    try {
      if (!existsSync(binPath)) throw new Error(`${binPath} is missing: run npm run build`);
      await cp(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
      break;
    } catch (error) {
      if (tries >= 20) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  for (const item of ['package.json', 'schemas', 'emulator-flows.yaml']) {
    await cp(join(repoRoot, item), join(dir, item), { recursive: true });
  }
  return { bin: join(dir, 'dist', 'bin.js'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
}

function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const merged = { ...process.env, ROLEFLOW_TOKEN: undefined, NO_COLOR: undefined, FORCE_COLOR: undefined, ...extra };
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) env[k] = v;
  return env;
}

/** A command that ends by itself (an error at start-up, --help). */
export function runOnce(bin: string, args: string[], opts: RunOptions): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: opts.cwd, env: childEnv(opts.env), timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Served {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `roleflow serve ARGS` as a process, once it has printed its URLs. */
export function serve(bin: string, args: string[], opts: RunOptions): Promise<Served> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { cwd: opts.cwd, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve printed no URLs within 15 s:\n${out}\n${err}`));
    }, 15_000);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening:\n${out}\n${err}`));
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const base = /base URL:\s+(\S+)/.exec(out)?.[1];
      const ws = /WebSocket URL:\s+(\S+)/.exec(out)?.[1];
      if (base === undefined || ws === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        baseUrl: base,
        wsUrl: ws,
        stdout: () => out,
        stderr: () => err,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** One raw HTTP call to a served tenant (`token: null` sends none), through the emulator tests' helper. */
export function http(baseUrl: string, method: string, path: string, token: string | null, body?: unknown): Promise<Reply> {
  const tenant = { baseUrl, token: token ?? '' } as RunningEmulator;
  return call(tenant, method, path, { token, ...(body === undefined ? {} : { body }) });
}
