// `roleflow apply --auto-approve --concurrency 8` of 2,000 new role files (500 with --quick) into an
// empty emulator answering every request 5 ms late, against a floor that sends the same 2,000 create
// requests from a bare undici loop at the same concurrency. Each run gets a fresh emulator (a child
// process). The apply run is the whole CLI process: start-up, reading the files, the list, the plan,
// its output and the creates; the floor is a bare script process doing only the POSTs (Node's
// start-up and undici's import included, as for any script), so the ratio is roleflow's overhead.
// The same loop inside this process (no start-up at all) is printed too, for the creates alone.
// BENCH_CPU_PROF=DIR profiles one more apply run into DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMs, loadPool, median, printResult, quick, roleFields, round, runLoad } from './lib.mjs';
import { listTenantRoles, runApplyFloor, runCli, startTenant, writeRoleFiles } from './roles-fixture.mjs';

const COUNT = quick ? 500 : 2000;
const CONCURRENCY = 8;
const LATENCY_MS = 5;
const ROUNDS = quick ? 1 : 3;
const TARGET = 1.2;

const work = mkdtempSync(join(tmpdir(), 'roleflow-apply-bench-'));
const rolesDir = join(work, 'roles');
const out = join(work, 'stdout');
const samples = { apply: [], floor: [], loop: [], plan: [] };
let errors = 0;
const fail = (what, why) => {
  errors++;
  console.log(`  error: ${what}: ${why}`);
};

try {
  writeRoleFiles(rolesDir, 0, COUNT, roleFields);
  const kinds = { floor: floorRun, loop: loopRun, apply: applyRun, plan: planRun };
  const names = Object.keys(kinds);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      const tenant = await startTenant({ latencyMs: LATENCY_MS });
      try {
        samples[name].push(await kinds[name](tenant.info));
        if (name !== 'plan') await checkTenant(name, tenant.info);
      } finally {
        await tenant.stop();
      }
    }
  }
  if (process.env.BENCH_CPU_PROF) {
    const tenant = await startTenant({ latencyMs: LATENCY_MS });
    try {
      await applyRun(tenant.info, ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]);
    } finally {
      await tenant.stop();
    }
    console.log(`CPU profile of one apply run written to ${process.env.BENCH_CPU_PROF}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const value = median(samples.apply);
const floor = median(samples.floor);
const planning = median(samples.plan);
const loop = median(samples.loop);
const ideal = (COUNT / CONCURRENCY) * LATENCY_MS;
const runs = (name) => `[${samples[name].map(formatMs).join(', ')}]`;
console.log(
  `${COUNT.toLocaleString('en-US')} creates, ${CONCURRENCY} at a time, ${LATENCY_MS} ms added latency (${formatMs(ideal)} if latency were all): ` +
    `apply ${formatMs(value)} ${runs('apply')}, floor ${formatMs(floor)} ${runs('floor')}; ` +
    `${(value / floor).toFixed(2)}x, ${formatMs(value - floor)} of overhead; median of ${ROUNDS}`,
);
// Where the overhead goes: the same files planned alone against an empty tenant is apply's work
// before its first create (start-up, files, list, plan, output), so the rest is the creates.
console.log(
  `  of which planning (plan alone, same files, empty tenant): ${formatMs(planning)} ${runs('plan')}; ` +
    `the creates then take about ${formatMs(value - planning)}, ${((value - planning) / loop).toFixed(2)}x the same loop run ` +
    `inside this bench process (no start-up): ${formatMs(loop)} ${runs('loop')}`,
);
printResult({
  bench: `apply ${COUNT.toLocaleString('en-US')} creates, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}`,
  value_ms: round(value, 1),
  floor_ms: round(floor, 1),
  ratio: round(value / floor),
  target: TARGET,
  errors,
});

async function floorRun(tenant) {
  const r = runApplyFloor({ tenant, stdoutFile: out, count: COUNT, concurrency: CONCURRENCY });
  if (r.code !== 0) fail('floor', `exit ${r.code}: ${r.stderr}`);
  else if (r.seen.errors > 0) fail('floor', `${r.seen.errors} failed requests (first: ${r.seen.firstError})`);
  return r.ms;
}

async function loopRun(tenant) {
  const pool = loadPool(tenant.baseUrl, CONCURRENCY);
  try {
    const headers = { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' };
    const run = await runLoad(pool, {
      count: COUNT,
      concurrency: CONCURRENCY,
      makeRequest: (i) => ({ method: 'POST', path: '/admin/roles/create', headers, body: JSON.stringify(roleFields(i)) }),
    });
    if (run.errors > 0) fail('loop', `${run.errors} failed requests (first: ${run.firstError})`);
    return run.ms;
  } finally {
    await pool.close();
  }
}

async function applyRun(tenant, execArgv = []) {
  const r = runCli(['apply', '--auto-approve', '--concurrency', String(CONCURRENCY), '--roles', rolesDir], { tenant, stdoutFile: out, execArgv });
  if (r.code !== 0) fail('apply', `exit ${r.code}: ${r.stderr}`);
  return r.ms;
}

async function planRun(tenant) {
  const r = runCli(['plan', '--roles', rolesDir], { tenant, stdoutFile: out });
  if (r.code !== 0) fail('plan', `exit ${r.code}: ${r.stderr}`);
  return r.ms;
}

// Both must leave exactly the role files' Roles behind: a fast wrong answer is not a result.
async function checkTenant(name, tenant) {
  const roles = await listTenantRoles(tenant);
  const names = new Set(roles.map((role) => role.name));
  const missing = Array.from({ length: COUNT }, (_, i) => roleFields(i).name).filter((n) => !names.has(n));
  if (roles.length !== COUNT || missing.length > 0) fail(name, `the tenant holds ${roles.length} Roles, ${missing.length} of the ${COUNT} are missing`);
}
