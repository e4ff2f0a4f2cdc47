// `apply` where users wait for it: on the tenant. Each run gets a fresh, empty emulator in a child
// process (roles-serve.mjs) answering every request LATENCY_MS late, and the CLI runs cold (empty
// HOME and XDG folders, lib.mjs: coldEnv).
// (a) COUNT creates at concurrency CONCURRENCY (apply's default, given explicitly), against the
//     bound COUNT x LATENCY_MS / CONCURRENCY: no client can create them sooner. A bare undici loop
//     sending the same creates as a process (roles-apply-floor.mjs) runs in the same rounds, for
//     information: roleflow's own overhead over the least a script must do.
// (b) The same creates under a rate limit of RATE requests a second (the emulator's token bucket:
//     429 with Retry-After in whole seconds), apply run again until it exits 0 (a CI job re-run):
//     the time until the tenant holds every Role, against the bound the limit sets for the
//     requests apply needs (one list and the creates, the bucket's first second of tokens free),
//     and the tenant checked for a missing or a duplicate Role.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coldEnv, formatMs, median, pairedRatio, printResult, quick, roleFields, round, spreadMs } from './lib.mjs';
import { listTenantRoles, runApplyFloor, runCli, startTenant, writeRoleFiles } from './roles-fixture.mjs';

const COUNT = quick ? 100 : 500;
const CONCURRENCY = 4;
const LATENCY_MS = 50;
const RATE = 20;
const ROUNDS = quick ? 1 : 3;
const MAX_APPLIES = 5;
const LATENCY_TARGET = 1.2;
const RATE_TARGET = 1.25; // the time over the bound; its inverse is the share of the allowed rate, ≥ 80%

const work = mkdtempSync(join(tmpdir(), 'roleflow-bench-tenant-apply-'));
const rolesDir = join(work, 'roles');
const out = join(work, 'stdout');
const samples = { apply: [], floor: [], limited: [], applies: [], refused: [], served: [] };
let errors = 0;
const fail = (what, why) => {
  errors++;
  console.log(`  error: ${what}: ${why}`);
};

try {
  writeRoleFiles(rolesDir, 0, COUNT, roleFields);
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? ['apply', 'floor'] : ['floor', 'apply']) {
      await withTenant({ latencyMs: LATENCY_MS }, async (tenant) => {
        samples[name].push(name === 'apply' ? applyOnce(tenant) : floorOnce(tenant));
        await checkTenant(name, tenant.info);
      });
    }
  }
  for (let r = 0; r < ROUNDS; r++) {
    await withTenant({ latencyMs: LATENCY_MS, ratePerSecond: RATE }, async (tenant) => {
      const { ms, applies } = applyUntilDone(tenant);
      const { statuses } = await tenant.probe();
      samples.limited.push(ms);
      samples.applies.push(applies);
      samples.refused.push(statuses['429'] ?? 0);
      samples.served.push(statuses['200'] ?? 0);
      await checkTenant('apply under the rate limit', tenant.info);
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const n = COUNT.toLocaleString('en-US');
const bound = (COUNT * LATENCY_MS) / CONCURRENCY;
const vsBound = pairedRatio(samples.apply, bound);
const vsFloor = pairedRatio(samples.apply, samples.floor);
console.log(`(a) ${n} creates, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}: bound ${n} x ${LATENCY_MS} ms / ${CONCURRENCY} = ${formatMs(bound)}`);
console.log(`  apply ${formatMs(median(samples.apply))} (${spreadMs(samples.apply)}): ${vsBound.ratio}x the bound (runs ${vsBound.ratio_spread.join('–')})`);
console.log(`  bare undici loop as a process ${formatMs(median(samples.floor))} (${spreadMs(samples.floor)}): apply is ${vsFloor.ratio}x it (rounds ${vsFloor.ratio_spread.join('–')})`);

// One list and the creates; the bucket starts full, so its first second of tokens costs no wait.
const needed = COUNT + 1;
const limitBound = (Math.max(0, needed - RATE) / RATE) * 1000;
const vsLimit = pairedRatio(samples.limited, limitBound);
console.log(`(b) the same under ${RATE} requests/s (429 + Retry-After): bound (${needed} requests - ${RATE} free) / ${RATE}/s = ${formatMs(limitBound)}`);
console.log(
  `  until the tenant held all ${n}: ${formatMs(median(samples.limited))} (${spreadMs(samples.limited)}), ${vsLimit.ratio}x the bound: ` +
    `${Math.round(100 / vsLimit.ratio)}% of the allowed rate; apply runs ${samples.applies.join(', ')}; answers 200: ${samples.served.join(', ')}, 429: ${samples.refused.join(', ')}`,
);

printResult({ bench: `apply ${n} creates, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}, vs N x latency / concurrency`, value_ms: round(median(samples.apply), 1), floor_ms: round(bound, 1), ...vsBound, target: LATENCY_TARGET, errors });
printResult({ bench: `apply ${n} creates, ${LATENCY_MS} ms latency, vs a bare undici loop process`, value_ms: round(median(samples.apply), 1), floor_ms: round(median(samples.floor), 1), ...vsFloor });
printResult({
  bench: `apply ${n} creates, limit ${RATE} requests/s (429 + Retry-After), vs the limit's bound`,
  value_ms: round(median(samples.limited), 1),
  floor_ms: round(limitBound, 1),
  ...vsLimit,
  target: RATE_TARGET,
  errors,
});
printResult({ bench: `apply runs until done, limit ${RATE} requests/s (most of ${ROUNDS})`, value: Math.max(...samples.applies), unit: 'runs' });

async function withTenant(options, run) {
  const tenant = await startTenant(options);
  try {
    await run(tenant);
  } finally {
    await tenant.stop();
  }
}

function cli(args, tenant) {
  const cold = coldEnv();
  try {
    return runCli(args, { tenant: tenant.info, stdoutFile: out, env: cold.env });
  } finally {
    cold.cleanup();
  }
}

function applyOnce(tenant) {
  const r = cli(['apply', '--auto-approve', '--concurrency', String(CONCURRENCY), '--roles', rolesDir], tenant);
  if (r.code !== 0) fail('apply', `exit ${r.code}: ${r.stderr}`);
  return r.ms;
}

function floorOnce(tenant) {
  const r = runApplyFloor({ tenant: tenant.info, stdoutFile: out, count: COUNT, concurrency: CONCURRENCY });
  if (r.code !== 0) fail('floor', `exit ${r.code}: ${r.stderr}`);
  else if (r.seen.errors > 0) fail('floor', `${r.seen.errors} failed requests (first: ${r.seen.firstError})`);
  return r.ms;
}

/** `apply` again after a run that did not finish, as a re-run CI job would, up to MAX_APPLIES runs. */
function applyUntilDone(tenant) {
  let ms = 0;
  for (let applies = 1; applies <= MAX_APPLIES; applies++) {
    const r = cli(['apply', '--auto-approve', '--concurrency', String(CONCURRENCY), '--roles', rolesDir], tenant);
    ms += r.ms;
    if (r.code === 0) return { ms, applies };
    console.log(`  apply run ${applies} under the rate limit: exit ${r.code}: ${r.stderr}`);
  }
  fail('apply under the rate limit', `not done after ${MAX_APPLIES} runs`);
  return { ms, applies: MAX_APPLIES };
}

// Exactly the role files' Roles, each once: a fast wrong answer is not a result.
async function checkTenant(name, tenant) {
  const roles = await listTenantRoles(tenant);
  const names = roles.map((role) => role.name);
  const unique = new Set(names);
  const missing = Array.from({ length: COUNT }, (_, i) => roleFields(i).name).filter((n) => !unique.has(n));
  if (missing.length > 0 || unique.size !== COUNT) fail(name, `${missing.length} of the ${COUNT} Roles missing, ${unique.size - COUNT + missing.length} unexpected names`);
  if (names.length !== unique.size) fail(name, `${names.length - unique.size} duplicate Roles`);
}
