// Throughput and memory of the emulator's Role endpoints under load, against a bare node:http floor
// answering the same JSON (serve-floor.mjs). Both servers run in child processes; the load comes
// from this one. Work is split into rounds that alternate between the two servers, so a burst of
// load on the shared machine hits both alike. BENCH_CPU_PROF=DIR profiles the emulator into DIR.
import {
  formatBytes,
  formatMs,
  formatRate,
  loadPool,
  pairedRatio,
  printResult,
  quick,
  roleFields,
  round,
  runLoad,
  startServerChild,
} from './lib.mjs';

const TOTAL = quick ? 10_000 : 100_000; // requests to each server
const CONCURRENCY = 32;
const ROLES = 100;
const ROUNDS = 10;
const TARGET = 1.5;
// RSS moves by several MB on the bare floor too (allocator and socket buffers), so RSS only catches
// gross growth; the heap after a GC catches a leak of a few dozen bytes per request.
const RSS_FLAT_TARGET_MB = 16;
const HEAP_FLAT_TARGET_KB = 1024;
const phases = {
  byId: { label: 'GET one role by id', count: Math.round(TOTAL * 0.5) },
  list: { label: `GET the list of ${ROLES} roles`, count: Math.round(TOTAL * 0.2) },
  create: { label: 'POST create a role', count: Math.round(TOTAL * 0.3) },
};
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

const floorChild = await startServerChild('./serve-floor.mjs', [String(ROLES)]);
const emulatorChild = await startServerChild('./serve-emulator.mjs', [], profile);
const servers = {
  floor: server(floorChild, floorChild.info.ids),
  emulator: server(emulatorChild, await seed(emulatorChild.info)),
};

try {
  const totals = { floor: tally(), emulator: tally() };
  let created = 0;
  const request = {
    byId: (s) => (i) => ({ method: 'GET', path: `/admin/roles/get?id=${s.ids[i % s.ids.length]}`, headers: s.headers }),
    list: (s) => () => ({ method: 'GET', path: '/admin/roles/get', headers: s.headers }),
    create: (s) => (i) => ({
      method: 'POST',
      path: '/admin/roles/create',
      headers: { ...s.headers, 'content-type': 'application/json' },
      body: JSON.stringify(roleFields(ROLES + created + i)),
    }),
  };
  const runRound = async (kinds, r) => {
    const order = r % 2 === 0 ? ['floor', 'emulator'] : ['emulator', 'floor'];
    for (const name of order) {
      const s = servers[name];
      for (const kind of kinds) {
        const before = await s.child.probe();
        const run = await runLoad(s.pool, { count: phases[kind].count / ROUNDS, concurrency: CONCURRENCY, makeRequest: request[kind](s) });
        const after = await s.child.probe();
        const total = totals[name][kind];
        total.ms += run.ms;
        total.rounds.push(run.ms);
        total.cpuMicros += after.cpuMicros - before.cpuMicros;
        total.errors += run.errors;
        total.firstError ??= run.firstError;
      }
    }
  };
  const memory = async () => ({ emulator: await emulatorChild.probe({ gc: true }), floor: await floorChild.probe({ gc: true }) });

  // Warm-up, not counted: the JIT, the connection pools, and the emulator's log of its last 10,000
  // requests (kept for tests), which grows until full and would otherwise look like a leak.
  for (const [name, s] of Object.entries(servers)) {
    await runLoad(s.pool, { count: name === 'emulator' ? 10_000 : 2000, concurrency: CONCURRENCY, makeRequest: request.byId(s) });
  }

  // Reads: memory must stay flat, so it is sampled at 10%, 50% and 100% of them.
  const readMemory = [];
  for (let r = 0; r < ROUNDS; r++) {
    await runRound(['byId', 'list'], r);
    if (r === 0 || r === ROUNDS / 2 - 1 || r === ROUNDS - 1) readMemory.push(await memory());
  }
  // Creates grow the store by design: measured as a figure per Role instead.
  const beforeCreates = await emulatorChild.probe({ gc: true });
  for (let r = 0; r < ROUNDS; r++) {
    await runRound(['create'], r);
    created += phases.create.count / ROUNDS;
  }
  const afterCreates = await emulatorChild.probe({ gc: true });

  console.log(`${TOTAL.toLocaleString('en-US')} requests to each server, ${CONCURRENCY} at a time, in ${ROUNDS} alternating rounds`);
  const rows = Object.entries(phases).map(([kind, phase]) => row(phase.label, phase.count, totals.emulator[kind], totals.floor[kind]));
  rows.push(row(`all ${TOTAL.toLocaleString('en-US')} requests`, TOTAL, sum(totals.emulator), sum(totals.floor)));

  const growth = {};
  for (const name of ['emulator', 'floor']) {
    const [at10, at50, at100] = readMemory.map((m) => m[name]);
    growth[name] = { rss: at100.rss - at50.rss, heap: at100.heapUsed - at50.heapUsed };
    console.log(
      `${name} memory over the reads: RSS ${formatBytes(at10.rss)} at 10%, ${formatBytes(at50.rss)} at 50%, ${formatBytes(at100.rss)} at 100% ` +
        `(heap ${formatBytes(at10.heapUsed)}, ${formatBytes(at50.heapUsed)}, ${formatBytes(at100.heapUsed)}); growth 50%→100%: RSS ${formatBytes(growth[name].rss)}, heap ${formatBytes(growth[name].heap)}`,
    );
  }
  const perRoleHeap = (afterCreates.heapUsed - beforeCreates.heapUsed) / created;
  const perRoleRss = (afterCreates.rss - beforeCreates.rss) / created;
  const now = new Date().toISOString();
  const roleJson = JSON.stringify({ id: crypto.randomUUID(), ...roleFields(0), created_at: now, last_updated: now }).length;
  console.log(
    `emulator memory over ${created.toLocaleString('en-US')} creates: heap ${formatBytes(beforeCreates.heapUsed)} → ${formatBytes(afterCreates.heapUsed)}, ` +
      `RSS ${formatBytes(beforeCreates.rss)} → ${formatBytes(afterCreates.rss)}; per Role ${formatBytes(perRoleHeap)} heap, ` +
      `${formatBytes(perRoleRss)} RSS (one Role's JSON is ${formatBytes(roleJson)})`,
  );

  for (const result of rows) printResult(result);
  printResult({
    bench: 'emulator RSS growth, reads 50%→100%',
    value: round(growth.emulator.rss / 1024 / 1024),
    floor: round(growth.floor.rss / 1024 / 1024),
    unit: 'MB',
    target: RSS_FLAT_TARGET_MB,
  });
  printResult({
    bench: 'emulator heap growth, reads 50%→100%',
    value: round(growth.emulator.heap / 1024, 1),
    floor: round(growth.floor.heap / 1024, 1),
    unit: 'KB',
    target: HEAP_FLAT_TARGET_KB,
  });
  printResult({ bench: 'emulator heap per created Role', value: Math.round(perRoleHeap), unit: 'B' });
} finally {
  for (const s of Object.values(servers)) await s.pool.close();
  await emulatorChild.stop();
  await floorChild.stop();
}

function server(child, ids) {
  return { child, pool: loadPool(child.info.baseUrl, CONCURRENCY), ids, headers: { authorization: `Bearer ${child.info.token}` } };
}

// The emulator's Roles are the floor's, created through its own endpoint.
async function seed({ baseUrl, token }) {
  const pool = loadPool(baseUrl, 1);
  try {
    const ids = [];
    for (let i = 0; i < ROLES; i++) {
      const { statusCode, body } = await pool.request({
        method: 'POST',
        path: '/admin/roles/create',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(roleFields(i)),
      });
      const answer = await body.json();
      if (statusCode !== 200) throw new Error(`seeding the emulator: status ${statusCode}: ${answer.message}`);
      ids.push(answer.id);
    }
    return ids;
  } finally {
    await pool.close();
  }
}

function tally() {
  return Object.fromEntries(Object.keys(phases).map((kind) => [kind, { ms: 0, rounds: [], cpuMicros: 0, errors: 0, firstError: undefined }]));
}

function sum(byKind) {
  const all = Object.values(byKind);
  const add = (key) => all.reduce((a, t) => a + t[key], 0);
  // Round r of every kind: a round of reads and a round of creates, as the rounds alternated.
  const rounds = all[0].rounds.map((_, r) => all.reduce((a, t) => a + t.rounds[r], 0));
  return { ms: add('ms'), rounds, cpuMicros: add('cpuMicros'), errors: add('errors'), firstError: all.find((t) => t.firstError)?.firstError };
}

// Wall time is what a user waits for; server CPU per request is steadier when the load generator
// itself is the bottleneck (one process on a shared 2-core machine), so both are printed. The
// ratio is of the totals; its spread is the rounds' own ratios, between which the total's lies.
function row(label, count, emu, floor) {
  const ratio = emu.ms / floor.ms;
  const { ratio_spread } = pairedRatio(emu.rounds, floor.rounds);
  const errors = emu.errors + floor.errors;
  const cpu = (t) => t.cpuMicros / count;
  console.log(
    `${label}: emulator ${formatRate((count * 1000) / emu.ms)} (${formatMs(emu.ms)}, ${cpu(emu).toFixed(0)} µs CPU/request), ` +
      `floor ${formatRate((count * 1000) / floor.ms)} (${formatMs(floor.ms)}, ${cpu(floor).toFixed(0)} µs CPU/request); ` +
      `${round(ratio)}x wall, ${round(cpu(emu) / cpu(floor))}x CPU; errors ${emu.errors} emulator, ${floor.errors} floor` +
      (errors > 0 ? ` (first: ${emu.firstError ?? floor.firstError})` : ''),
  );
  return {
    bench: `emulator ${label}`,
    value_ms: round(emu.ms, 1),
    floor_ms: round(floor.ms, 1),
    ratio: round(ratio),
    ratio_spread,
    target: TARGET,
    rps: Math.round((count * 1000) / emu.ms),
    floor_rps: Math.round((count * 1000) / floor.ms),
    cpu_ratio: round(cpu(emu) / cpu(floor)),
    errors,
  };
}
