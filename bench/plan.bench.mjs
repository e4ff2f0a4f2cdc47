// `roleflow plan --json` over N role files against a tenant holding the same N Roles, half of the
// files with changed content (so half the Roles are updates with a diff, half unchanged), at 1,000,
// 10,000, 50,000 and 100,000 Roles (--quick: 1,000 and 10,000). The floor, run round-robin with it,
// is a bare script doing the same input work with Node built-ins (roles-floor.mjs: readFileSync of
// the files, one node:http GET of the list, JSON.parse). Time and peak RSS of each process
// (roles-usage.mjs, which also gives their CPU time). BENCH_CPU_PROF=DIR profiles one more plan run at the largest size into DIR.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes, formatMs, median, pairedRatio, printResult, quick, roleFields, round } from './lib.mjs';
import { changedFields, runCli, runPlanFloor, startTenant, writeRoleFiles, writeTenantData } from './roles-fixture.mjs';

const SIZES = quick ? [1000, 10_000] : [1000, 10_000, 50_000, 100_000];
const ROUNDS = quick ? 2 : 5;
const MAIN_SIZE = SIZES.at(-1);
const TARGET = 2;
const RSS_TARGET = 1.5; // peak RSS over the floor's
const LINEAR_TARGET = 1.3; // each step from 10k on within 1.3x of proportional
const isChanged = (i) => i % 2 === 1;

const work = mkdtempSync(join(tmpdir(), 'roleflow-plan-bench-'));
const rolesDir = join(work, 'roles');
const out = join(work, 'stdout');
const bySize = {};
let written = 0;
try {
  for (const size of SIZES) {
    // The sizes grow, so each adds files to the last one's folder: file i is the same at every size.
    const setupStart = performance.now();
    writeRoleFiles(rolesDir, written, size, (i) => (isChanged(i) ? changedFields(i) : roleFields(i)));
    written = size;
    const dataFile = join(work, `tenant-${size}.json`);
    writeTenantData(dataFile, size);
    const tenant = await startTenant({ dataFile });
    console.log(`${size.toLocaleString('en-US')} roles: files and tenant ready in ${formatMs(performance.now() - setupStart)}`);
    try {
      bySize[size] = measure(size, tenant.info);
      if (size === MAIN_SIZE && process.env.BENCH_CPU_PROF) {
        runCli(['plan', '--roles', rolesDir, '--json'], { tenant: tenant.info, stdoutFile: out, execArgv: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] });
        console.log(`  CPU profile of one plan run written to ${process.env.BENCH_CPU_PROF}`);
      }
    } finally {
      await tenant.stop();
      rmSync(dataFile, { force: true });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const results = [];
for (const size of SIZES) {
  const m = bySize[size];
  const n = size.toLocaleString('en-US');
  const main = size === MAIN_SIZE;
  results.push({
    bench: `plan ${n} roles, half changed`,
    value_ms: round(m.plan, 1),
    floor_ms: round(m.floor, 1),
    ...pairedRatio(m.runs.plan, m.runs.floor),
    ...(main ? { target: TARGET } : {}),
    per_role_us: round((m.plan * 1000) / size, 1),
    errors: m.errors,
  });
  if (main) {
    // Wall time is the target; CPU time (every thread: the collector's and the compiler's too) is shown beside it.
    results.push({ bench: `plan CPU time (every thread), ${n} roles`, value_ms: round(m.cpu, 1), floor_ms: round(m.floorCpu, 1), ratio: round(m.cpu / m.floorCpu) });
  }
  results.push({
    bench: `plan peak RSS, ${n} roles`,
    value: round(m.rss / 1024 / 1024, 1),
    floor: round(m.floorRss / 1024 / 1024, 1),
    unit: 'MB',
    ratio: round(m.rss / m.floorRss),
    ...(main ? { target: RSS_TARGET } : {}),
  });
}
console.log('scaling (wall time of the whole plan process, start-up included):');
for (const size of SIZES) {
  console.log(`  ${size.toLocaleString('en-US').padStart(7)} roles: ${formatMs(bySize[size].plan)}, ${((bySize[size].plan * 1000) / size).toFixed(0)} µs per role`);
}
// From 10k on, each step's time over the proportional time: 1 is exactly linear (fixed costs make it less).
const steps = SIZES.filter((s) => s >= 10_000);
for (let i = 1; i < steps.length; i++) {
  const [a, b] = [steps[i - 1], steps[i]];
  const growth = bySize[b].plan / bySize[a].plan / (b / a);
  const label = `plan time ${b / 1000}k / ${a / 1000}k roles, over proportional`;
  console.log(`  ${label}: ${growth.toFixed(2)} (≤ ${LINEAR_TARGET}: ${growth <= LINEAR_TARGET ? 'linear' : 'worse than linear'})`);
  results.push({ bench: label, value: round(growth), unit: 'x', target: LINEAR_TARGET });
}
for (const result of results) printResult(result);

// Round-robin between the plan and the floor, after one untimed floor run (it makes the emulator
// build its list body, which it then caches). Every run's answer is checked: a wrong plan is an error.
function measure(size, tenant) {
  const runs = { plan: [], floor: [] };
  const cpu = { plan: [], floor: [] };
  const rss = { plan: 0, floor: 0 };
  let errors = 0;
  const fail = (what, why) => {
    errors++;
    console.log(`  error: ${what}: ${why}`);
  };
  const floorRun = () => {
    const r = runPlanFloor(rolesDir, { tenant, stdoutFile: out });
    if (r.code !== 0) fail('floor', `exit ${r.code}: ${r.stderr}`);
    else if (r.seen.files !== size || r.seen.roles !== size) fail('floor', `saw ${JSON.stringify(r.seen)}`);
    return r;
  };
  floorRun();
  const kinds = {
    floor: floorRun,
    plan: () => {
      const r = runCli(['plan', '--roles', rolesDir, '--json'], { tenant, stdoutFile: out });
      if (r.code !== 0) fail('plan', `exit ${r.code}: ${r.stderr}`);
      else checkPlan(size, fail);
      return r;
    },
  };
  const names = Object.keys(kinds);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const r = kinds[name]();
      runs[name].push(r.ms);
      if (r.cpuMs !== undefined) cpu[name].push(r.cpuMs);
      rss[name] = Math.max(rss[name], r.maxRss ?? 0);
    }
  }
  const m = { runs, plan: median(runs.plan), floor: median(runs.floor), rss: rss.plan, floorRss: rss.floor, cpu: median(cpu.plan), floorCpu: median(cpu.floor), errors };
  const spread = (v) => `${formatMs(Math.min(...v))}–${formatMs(Math.max(...v))}`;
  console.log(
    `  plan ${formatMs(m.plan)} (spread ${spread(runs.plan)}, peak RSS ${formatBytes(m.rss)}); ` +
      `floor ${formatMs(m.floor)} (spread ${spread(runs.floor)}, peak RSS ${formatBytes(m.floorRss)}): ` +
      `${pairedRatio(runs.plan, runs.floor).ratio}x time (rounds ${pairedRatio(runs.plan, runs.floor).ratio_spread.join('–')}), ${(m.rss / m.floorRss).toFixed(2)}x RSS; median of ${ROUNDS}`,
  );
  console.log(`  CPU time (every thread): plan ${formatMs(m.cpu)}, floor ${formatMs(m.floorCpu)}: ${(m.cpu / m.floorCpu).toFixed(2)}x`);
  return m;
}

function checkPlan(size, fail) {
  let plan;
  try {
    plan = JSON.parse(readFileSync(out, 'utf8'));
  } catch (err) {
    return fail('plan', `its --json output does not parse: ${err.message}`);
  }
  const want = { create: 0, update: size / 2, delete: 0, unchanged: size / 2 };
  const got = plan.summary ?? {};
  if (Object.entries(want).some(([key, n]) => got[key] !== n)) fail('plan', `summary ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}
