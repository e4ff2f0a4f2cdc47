// Shared helpers for bench/*.bench.mjs (see bench/README.md for the convention).
// Machines are shared and noisy, so every figure is compared with a floor measured in the same run.
import { fork, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

/** `--quick` (or BENCH_QUICK=1): smaller counts, for a smoke run. */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export function median(values) {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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
 * Run each named command `runs` times, round-robin, so that a burst of load on the machine hits all
 * of them alike; returns the samples in ms per name. One untimed warm-up round fills the disk cache
 * (and roleflow's compile cache). `[command, args, env, { cwd, before }]`: env is added to the
 * bench's environment (`withEnv`); the command runs in `cwd` (default: the package root), after
 * `before(round)`, which is not timed.
 */
export function timeInterleaved(commands, runs) {
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = -1; round < runs; round++) {
    for (const [name, [command, args, env, { cwd, before } = {}]] of Object.entries(commands)) {
      before?.(round);
      const ms = timeCommand(command, args, { ...(env === undefined ? {} : { env: withEnv(env) }), ...(cwd === undefined ? {} : { cwd }) });
      if (round >= 0) samples[name].push(ms);
    }
  }
  return samples;
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

/** The child side of startServerChild: report `info` when ready, answer probes, stop on request. */
export function serveChildProtocol(info, stop) {
  process.on('message', async (m) => {
    if (m.type === 'probe') {
      if (m.gc) globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      const { user, system } = process.cpuUsage();
      process.send({ type: 'probe', rss, heapUsed, cpuMicros: user + system });
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
