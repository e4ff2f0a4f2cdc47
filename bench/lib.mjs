// Shared helpers for bench/*.bench.mjs (see bench/README.md for the convention).
// Machines are shared and noisy, so every figure is compared with a floor measured in the same run.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** `--quick` (or BENCH_QUICK=1): smaller counts, for a smoke run. */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export function median(values) {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p`-th percentile (0..100) by the nearest rank: a value that was measured. */
export function percentile(values, p) {
  if (values.length === 0) throw new Error('percentile of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * The ratio of paired samples (`values[i]` over `floors[i]`, taken in the same round, or over one
 * bound): their median, and their spread (min–max). A drift in the machine's speed between rounds
 * cancels out of each pair, where it would not out of a ratio of two medians. A pair with a figure
 * at or below zero (a difference of two runs that the machine's load swamped) is left out; with
 * none left, the ratio is NaN.
 */
export function pairedRatio(values, floors) {
  const ratios = values
    .map((v, i) => [v, Array.isArray(floors) ? floors[i] : floors])
    .filter(([v, f]) => v > 0 && f > 0)
    .map(([v, f]) => v / f);
  if (ratios.length === 0) return { ratio: Number.NaN, ratio_spread: [Number.NaN, Number.NaN] };
  return { ratio: round(median(ratios)), ratio_spread: [round(Math.min(...ratios)), round(Math.max(...ratios))] };
}

/** `min–max` of samples in ms. */
export function spreadMs(values) {
  return `${formatMs(Math.min(...values))}–${formatMs(Math.max(...values))}`;
}

/**
 * The environment of a fresh CI runner for one process: HOME and the XDG base folders are new,
 * empty temporary folders, and NODE_EXTRA_CA_CERTS is unset. Where it is set (many CI images and
 * development machines), Node reads those certificates at every start, before any script: both a
 * command and its `node -e 0` floor would pay it, which flatters their ratio. `cleanup()` removes
 * the folders.
 */
export function coldEnv() {
  const dir = mkdtempSync(join(tmpdir(), 'roleflow-bench-home-'));
  const env = { NODE_EXTRA_CA_CERTS: undefined };
  for (const [name, sub] of [['HOME', 'home'], ['XDG_CONFIG_HOME', 'config'], ['XDG_CACHE_HOME', 'cache'], ['XDG_DATA_HOME', 'data'], ['XDG_STATE_HOME', 'state']]) {
    env[name] = join(dir, sub);
    mkdirSync(env[name], { mode: 0o700 });
  }
  return { env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Run a process to its exit with its stdout and stderr read through pipes, as a CI runner reads a
 * step. Resolves with the wall time from the spawn to the exit (`wall`), the time from the last
 * byte it wrote on either stream to its exit (`exitLag`; undefined when it wrote nothing), its exit
 * code and what it printed. The bench's own event loop is idle meanwhile, so an arriving chunk is
 * seen as it comes.
 */
export function runProcess(command, args, { env, cwd = root } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let lastOutput;
    const out = [];
    const err = [];
    const child = spawn(command, args, { cwd, env: env === undefined ? process.env : withEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const seen = (chunks) => (chunk) => {
      lastOutput = performance.now();
      chunks.push(chunk);
    };
    child.stdout.on('data', seen(out));
    child.stderr.on('data', seen(err));
    let exitAt;
    let code;
    child.on('error', reject);
    child.on('exit', (c, signal) => {
      exitAt = performance.now();
      code = c ?? signal;
    });
    child.on('close', () =>
      resolve({
        wall: exitAt - start,
        exitLag: lastOutput === undefined ? undefined : Math.max(0, exitAt - lastOutput),
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** Wall time of one run of a command to its exit, in ms; a failing command is a crash of the bench. */
export function timeCommand(command, args, options = {}) {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
  const ms = performance.now() - start;
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  return ms;
}

/** process.env with `changes`: a variable set to `undefined` is removed. */
export function withEnv(changes) {
  const env = { ...process.env, ...changes };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete env[name];
  return env;
}

/**
 * Fork a server script that sends `{type: 'ready', ...info}` over IPC once listening (see
 * serveChildProtocol). `probe()` gives the child's memory and CPU time so far; `probe({gc: true})`
 * collects garbage first (the child runs with --expose-gc), for memory figures that mean something.
 */
export async function startServerChild(script, args = [], execArgv = []) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    cwd: root,
    execArgv: ['--expose-gc', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready`)));
  });
  return {
    info,
    probe: ({ gc = false } = {}) =>
      new Promise((resolve) => {
        child.once('message', ({ type, ...figures }) => resolve(figures));
        child.send({ type: 'probe', gc });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.send({ type: 'stop' });
      }),
  };
}

/**
 * The child side of startServerChild: report `info` when ready, answer probes (with `more()`'s
 * figures added), stop on request.
 */
export function serveChildProtocol(info, stop, more = () => ({})) {
  process.on('message', async (m) => {
    if (m.type === 'probe') {
      if (m.gc) globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      const { user, system } = process.cpuUsage();
      process.send({ type: 'probe', rss, heapUsed, cpuMicros: user + system, ...more() });
    } else if (m.type === 'stop') {
      await stop();
      process.disconnect();
    }
  });
  // The bench is gone (crashed or done): a server left behind would hold a port and a core.
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', ...info });
}

/** A keep-alive undici pool with one connection per concurrent worker. */
export function loadPool(baseUrl, concurrency) {
  return new Pool(baseUrl, { connections: concurrency, pipelining: 1 });
}

/**
 * `count` requests through `pool`, `concurrency` at a time; `makeRequest(i)` gives undici request
 * options. Any status other than 200, or any network error, counts as an error.
 */
export async function runLoad(pool, { count, concurrency, makeRequest }) {
  let next = 0;
  let errors = 0;
  let firstError;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      try {
        const { statusCode, body } = await pool.request(makeRequest(i));
        await body.arrayBuffer();
        if (statusCode !== 200) {
          errors++;
          firstError ??= `status ${statusCode}`;
        }
      } catch (err) {
        errors++;
        firstError ??= err.message;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: performance.now() - start, count, errors, firstError };
}

/** A Role's fields of about the size of a real system prompt, the same for the emulator and the floor. */
export function roleFields(i) {
  const n = String(i).padStart(5, '0');
  return {
    name: `bench-role-${n}`,
    description: `Benchmark role ${n}: tier-1 support for one product line`,
    content:
      `# Support agent ${n}\n\nYou are a support agent for the product line ${n}. Answer in the customer's ` +
      'language, politely and briefly. Never promise refunds; point to the refund policy instead.\n\n' +
      '## Steps\n\n1. Read the ticket.\n2. Find the order in the order system.\n3. Answer with the order ' +
      'status, the next step and a link to the help centre.\n\n## Tone\n\nFriendly, plain words, no jargon.\n',
  };
}

/** The one result line run.mjs collects: lower is better, `ratio` is value over floor. */
export function printResult(result) {
  console.log(JSON.stringify(result));
}

export function round(value, digits = 2) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function formatMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms >= 100 ? 0 : 1)} ms`;
}

export function formatRate(perSecond) {
  return `${Math.round(perSecond).toLocaleString('en-US')} req/s`;
}

export function formatBytes(bytes) {
  const sign = bytes < 0 ? '-' : '';
  const b = Math.abs(bytes);
  if (b >= 1024 * 1024) return `${sign}${(b / 1024 / 1024).toFixed(1)} MB`;
  if (b >= 1024) return `${sign}${(b / 1024).toFixed(1)} KB`;
  return `${sign}${Math.round(b)} B`;
}
