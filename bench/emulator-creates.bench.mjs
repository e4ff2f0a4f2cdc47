// Role creates under autocannon (a separate process, c32), as server CPU per request: a bare
// node:http server (serve-floor.mjs), the emulator holding 10,000 Roles in memory, and the same
// emulator with `--data` (10,000 Roles in its data file). Interleaved rounds; median and spread.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatRate, median, pairedRatio, printResult, quick, round, roleFields, startServerChild } from './lib.mjs';
import { writeTenantData } from './roles-fixture.mjs';

const ROUNDS = 3;
const COUNT = quick ? 5_000 : 30_000;
const CONCURRENCY = 32;
const PRELOAD = quick ? 1_000 : 10_000;
const TARGET = 1.5;
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

const work = mkdtempSync(join(tmpdir(), 'roleflow-bench-creates-'));
const dataFile = join(work, 'tenant.json');
writeTenantData(dataFile, PRELOAD);
const servers = {
  floor: await startServerChild('./serve-floor.mjs', ['100']),
  memory: await startServerChild('./creates-serve.mjs', [String(PRELOAD), '-']),
  data: await startServerChild('./creates-serve.mjs', [String(PRELOAD), dataFile]),
};

/** One autocannon run of COUNT creates; the server's CPU time per request (µs) and the rate. */
async function sample(server) {
  const before = (await server.probe()).cpuMicros;
  const result = await load(server.info);
  const after = (await server.probe()).cpuMicros;
  const errors = result.errors + result.non2xx + result.timeouts;
  return { cpuPerRequest: (after - before) / result.requests.total, rps: result.requests.total / result.duration, errors, total: result.requests.total };
}

function load({ baseUrl, token }) {
  const body = JSON.stringify(roleFields(1));
  // The token reaches autocannon through its environment-free argv, never printed.
  const args = [autocannon, '-c', String(CONCURRENCY), '-a', String(COUNT), '-m', 'POST', '-H', `authorization=Bearer ${token}`, '-H', 'content-type=application/json', '-b', body, '-j', `${baseUrl}/admin/roles/create`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`))));
  });
}

const samples = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
let errors = 0;
for (let r = -1; r < ROUNDS; r++) {
  for (const [name, server] of Object.entries(servers)) {
    const s = await sample(server);
    errors += s.errors;
    if (r >= 0) samples[name].push(s); // round -1 warms every server up
  }
}
for (const server of Object.values(servers)) await server.stop();
rmSync(work, { recursive: true, force: true });

const cpu = (name) => median(samples[name].map((s) => s.cpuPerRequest));
const spread = (name) => {
  const v = samples[name].map((s) => s.cpuPerRequest);
  return `${round(Math.min(...v), 1)}–${round(Math.max(...v), 1)} µs`;
};
for (const name of Object.keys(servers)) {
  console.log(`${name.padEnd(7)} CPU per create: median ${round(cpu(name), 1)} µs (spread ${spread(name)} over ${ROUNDS}), ${formatRate(median(samples[name].map((s) => s.rps)))}`);
}
// Server CPU per request in µs: a quantity with its floor, judged on the median of the rounds' ratios.
const result = (bench, name, floorName) => ({
  bench,
  value: round(cpu(name), 1),
  floor: round(cpu(floorName), 1),
  unit: 'µs',
  ...pairedRatio(...[name, floorName].map((n) => samples[n].map((s) => s.cpuPerRequest))),
  target: TARGET,
  errors,
});
printResult(result(`emulator creates c${CONCURRENCY}, CPU/request vs node:http`, 'memory', 'floor'));
printResult(result(`emulator creates --data ${PRELOAD / 1000}k Roles vs in memory`, 'data', 'memory'));
