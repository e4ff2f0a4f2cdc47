// `roleflow plan --json` over N role files against a tenant holding the same N Roles, half of the
// files with changed content (so half the Roles are updates with a diff, half unchanged), at 1,000,
// 10,000 and 50,000 Roles (--quick: no 50,000). The floor, run in the same rounds, is a bare script
// doing the same input work (roles-floor.mjs: read the files, one GET of the list, JSON.parse).
// Peak RSS is the plan process's own (roles-maxrss.mjs). BENCH_CPU_PROF=DIR profiles one more plan
// run at 10,000 Roles into DIR.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes, formatMs, median, printResult, quick, roleFields, round } from './lib.mjs';
import { changedFields, runCli, runPlanFloor, startTenant, writeRoleFiles, writeTenantData } from './roles-fixture.mjs';

const SIZES = quick ? [1000, 10_000] : [1000, 10_000, 50_000];
// The 50,000 run takes tens of seconds; its figures are about scaling, not noise.
const ROUNDS = { 1000: quick ? 2 : 3, 10_000: quick ? 1 : 3, 50_000: 1 };
const MAIN_SIZE = 10_000;
const TARGET = 2;
const RSS_TARGET_MB = 300;
const LINEAR_TARGET = 5; // time(50k) / time(10k): fixed costs make a linear plan come in under 5
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
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const results = [];
for (const size of SIZES) {
  const m = bySize[size];
  const label = `plan ${size.toLocaleString('en-US')} roles, half changed`;
  results.push({
    bench: label,
    value_ms: round(m.plan, 1),
    floor_ms: round(m.floor, 1),
    ratio: round(m.plan / m.floor),
    ...(size === MAIN_SIZE ? { target: TARGET } : {}),
    per_role_us: round((m.plan * 1000) / size, 1),
    errors: m.errors,
  });
  if (size === MAIN_SIZE || size === 50_000) {
    results.push({
      bench: `plan peak RSS, ${size.toLocaleString('en-US')} roles`,
      value: round(m.rss / 1024 / 1024, 1),
      floor: round(m.floorRss / 1024 / 1024, 1),
      unit: 'MB',
      ...(size === MAIN_SIZE ? { target: RSS_TARGET_MB } : {}),
    });
  }
}
console.log('scaling (wall time of the whole plan process, start-up included):');
for (const size of SIZES) {
  console.log(`  ${size.toLocaleString('en-US').padStart(6)} roles: ${formatMs(bySize[size].plan)}, ${((bySize[size].plan * 1000) / size).toFixed(0)} µs per role`);
}
if (bySize[50_000]) {
  const [t1, t10, t50] = [bySize[1000].plan, bySize[10_000].plan, bySize[50_000].plan];
  const growth = t50 / t10;
  const marginal = (a, b, na, nb) => ((b - a) * 1000) / (nb - na);
  console.log(
    `  time(50k) / time(10k) = ${growth.toFixed(2)} (5 would be exactly linear with no fixed cost): ` +
      `${growth <= LINEAR_TARGET ? 'linear or better' : 'worse than linear'}; the cost of each added role is ` +
      `${marginal(t1, t10, 1000, 10_000).toFixed(0)} µs from 1k to 10k and ${marginal(t10, t50, 10_000, 50_000).toFixed(0)} µs from 10k to 50k`,
  );
  results.push({ bench: 'plan time 50k / 10k roles', value: round(growth), unit: 'x', target: LINEAR_TARGET });
}
for (const result of results) printResult(result);

// Round-robin between the plan and the floor (two floors at the main size), after one untimed floor run (it makes the emulator
// build its list body, which it then caches). Every run's answer is checked: a wrong plan is an error.
function measure(size, tenant) {
  const runs = { plan: [], floor: [], floorAsync: [] };
  // The fs.promises floor only explains the main figure; at the other sizes it would only add minutes.
  const withAsync = size === MAIN_SIZE;
  const rss = { plan: 0, floor: 0 };
  let errors = 0;
  const fail = (what, why) => {
    errors++;
    console.log(`  error: ${what}: ${why}`);
  };
  const floorRun = (reads) => {
    const r = runPlanFloor(rolesDir, { tenant, stdoutFile: out, reads });
    if (r.code !== 0) fail(`floor (${reads})`, `exit ${r.code}: ${r.stderr}`);
    else if (r.seen.files !== size || r.seen.roles !== size) fail(`floor (${reads})`, `saw ${JSON.stringify(r.seen)}`);
    return r;
  };
  floorRun('sync');
  const kinds = {
    floor: () => floorRun('sync'),
    ...(withAsync ? { floorAsync: () => floorRun('async') } : {}),
    plan: () => {
      const r = runCli(['plan', '--roles', rolesDir, '--json'], { tenant, stdoutFile: out });
      if (r.code !== 0) fail('plan', `exit ${r.code}: ${r.stderr}`);
      else checkPlan(size, fail);
      return r;
    },
  };
  const names = Object.keys(kinds);
  for (let round = 0; round < ROUNDS[size]; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const r = kinds[name]();
      runs[name].push(r.ms);
      if (name in rss) rss[name] = Math.max(rss[name], r.maxRss ?? 0);
    }
  }
  const m = { plan: median(runs.plan), floor: median(runs.floor), rss: rss.plan, floorRss: rss.floor, errors };
  console.log(
    `  plan ${formatMs(m.plan)} (peak RSS ${formatBytes(m.rss)}); floor ${formatMs(m.floor)} (peak RSS ${formatBytes(m.floorRss)}): ` +
      `${(m.plan / m.floor).toFixed(2)}x; median of ${ROUNDS[size]}`,
  );
  if (withAsync) {
    const floorAsync = median(runs.floorAsync);
    console.log(
      `  floor reading with fs.promises.readFile, 16 at a time: ${formatMs(floorAsync)} (${(floorAsync / m.floor).toFixed(2)}x the readFileSync floor; plan is ${(m.plan / floorAsync).toFixed(2)}x it)`,
    );
  }
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
