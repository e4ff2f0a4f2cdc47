// The latency-honesty half of flows.bench.mjs: what `roleflow test` reports for the `timed` flow,
// against what the emulator was told to simulate and what a bare client measures.
import { barePool, httpsCase, runnerSchedule, wsCase } from './flows-bare.mjs';
import { TIMED_STEPS, ZERO_STEPS } from './flows-fixture.mjs';
import { formatMs, median, round } from './lib.mjs';

const TIMED_TOTAL_MS = TIMED_STEPS.reduce((sum, s) => sum + s.latencyMs, 0);

/**
 * Run the `timed` suite once (`runTimed()` gives its JSON report) between bare measurements taken
 * half before and half after it, so a change in the machine's load shows on both sides; print the
 * step table and the wall-clock comparisons; return the result lines.
 */
export async function latencyHonesty(info, { repeat, rttSamples, targetMs, runTimed }) {
  const before = await bareRoundTrips(info, rttSamples / 2);
  const polledBefore = await barePolledWalls(info, Math.ceil(repeat / 2));
  const report = runTimed();
  const polledAfter = await barePolledWalls(info, Math.floor(repeat / 2));
  const after = await bareRoundTrips(info, rttSamples / 2);
  const rtt = {
    start: median([...before.start, ...after.start]),
    poll: median([...before.poll, ...after.poll]),
    ws: median([...before.ws, ...after.ws]),
  };
  const barePolled = [...polledBefore, ...polledAfter];

  console.log(`\nLatency honesty: flow "timed", steps ${TIMED_STEPS.map((s) => `${s.latencyMs}ms`).join(' + ')} = ${TIMED_TOTAL_MS}ms, ${repeat} repeats per transport, one at a time`);
  const steps = stepLatencyRows(report);
  console.log('  step        configured  reported (HTTPS, every repeat)  diff');
  for (const s of steps) {
    const shown = [...new Set(s.reported)].map((ms) => (ms === null ? 'missing' : `${ms}ms`)).join(', ');
    console.log(`  ${s.service.padEnd(10)}  ${`${s.configured}ms`.padEnd(10)}  ${shown.padEnd(30)}  ${s.maxDiff === Infinity ? 'missing' : `${s.maxDiff}ms`}`);
  }
  console.log('  (server-reported step latencies come from the HTTPS execution log; WebSocket messages carry none)');

  const wsWalls = wallClocks(report, 'ws');
  const wsExpected = TIMED_TOTAL_MS + rtt.ws;
  const wsExcess = excess(wsWalls, wsExpected);
  console.log(
    `  WebSocket wall-clock: median ${formatMs(median(wsWalls))}; expected ${TIMED_TOTAL_MS}ms + bare connect/send/ack/completed ${formatMs(rtt.ws)} = ${formatMs(wsExpected)}; ` +
      `excess median ${signed(wsExcess.median)}, worst ${signed(wsExcess.worst)} (target ±${targetMs}ms)`,
  );

  const httpsWalls = wallClocks(report, 'https');
  const httpsExpected = TIMED_TOTAL_MS + rtt.start + rtt.poll;
  const httpsExcess = excess(httpsWalls, httpsExpected);
  const first = predictFirstHttpsWall(TIMED_TOTAL_MS, rtt.start, rtt.poll);
  const polledMedian = median(barePolled);
  const overPolled = excess(httpsWalls, polledMedian);
  console.log(
    `  HTTPS wall-clock: median ${formatMs(median(httpsWalls))}; expected ${TIMED_TOTAL_MS}ms + bare start ${formatMs(rtt.start)} + poll ${formatMs(rtt.poll)} = ${formatMs(httpsExpected)}; ` +
      `excess median ${signed(httpsExcess.median)}, worst ${signed(httpsExcess.worst)} (target ±${targetMs}ms)`,
  );
  console.log(
    `    The HTTPS runner learns of the end only at a poll after it. It polls a fifth of the time since the start later (25ms to 1s), ` +
      `and, once an execution of the flow has finished, also when that one's reported step latencies say the flow ends. ` +
      `The first repeat, on the pace alone, sees the end of a ${TIMED_TOTAL_MS}ms flow at poll ${first.polls}, sent ~${formatMs(first.sentAt)} after the start: ` +
      `${formatMs(first.wallMs)} on an idle machine; the later ones at the poll sent at the expected end: ~${formatMs(httpsExpected)}. ` +
      `A bare client polling on that schedule took median ${formatMs(polledMedian)}; the runner's excess over it: median ${signed(overPolled.median)}, worst ${signed(overPolled.worst)}.`,
  );
  console.log(`  every wall-clock, in run order: WebSocket ${listMs(wsWalls)}; HTTPS ${listMs(httpsWalls)}; bare HTTPS polling ${listMs(barePolled)}`);

  const wrong = steps.reduce((n, s) => n + s.wrong, 0);
  const ms = (bench, value) => ({ bench, value: round(Math.abs(value), 1), unit: 'ms', target: targetMs });
  return [
    { bench: 'flows step latency |reported - configured|', value: Math.max(...steps.map((s) => s.maxDiff)), unit: 'ms', target: 0, errors: wrong },
    ms('flows WebSocket |wall - (simulated + bare)|', wsExcess.median),
    ms('flows HTTPS |wall - (simulated + bare)|', httpsExcess.median),
    ms('flows HTTPS |wall - bare on same poll schedule|', overPolled.median),
  ];
}


/**
 * Bare round trips of the `zero` flow, one at a time: HTTPS start and poll on a warm keep-alive
 * connection (as the runner's repeats after the first), WebSocket connect + send + ack + completed
 * messages on a new connection each time (as the runner opens one per execution).
 */
async function bareRoundTrips({ baseUrl, wsUrl, token }, samples) {
  const pool = barePool(baseUrl, 1);
  const start = [];
  const poll = [];
  const ws = [];
  try {
    for (let i = -2; i < samples; i++) {
      const trips = await httpsCase(pool, token, 'zero', { n: 'rtt' }, ZERO_STEPS);
      const began = performance.now();
      await wsCase(wsUrl, token, 'zero', { n: 'rtt' }, ZERO_STEPS);
      const wsMs = performance.now() - began;
      if (i < 0) continue; // warm-up: the connection, the JIT
      if (trips.length !== 2) throw new Error(`zero flow: expected 1 poll, took ${trips.length - 1}`);
      start.push(trips[0]);
      poll.push(trips[1]);
      ws.push(wsMs);
    }
  } finally {
    await pool.close();
  }
  return { start, poll, ws };
}

/**
 * Wall-clock of `count` executions of the `timed` flow, one at a time, by a bare client that polls
 * on the runner's schedule: what the HTTPS runner's wall-clock would be if it cost nothing itself.
 * The warm-up execution teaches the schedule the flow's pace, as the runner's first repeat does.
 */
async function barePolledWalls({ baseUrl, token }, count) {
  const pool = barePool(baseUrl, 1);
  const schedule = runnerSchedule();
  const walls = [];
  try {
    for (let i = -1; i < count; i++) {
      const began = performance.now();
      await httpsCase(pool, token, 'timed', { n: 'timed' }, TIMED_STEPS.length, schedule);
      if (i >= 0) walls.push(performance.now() - began);
    }
  } finally {
    await pool.close();
  }
  return walls;
}

/**
 * When the HTTPS runner sees the end of a flow that takes `totalMs` on the server, on an idle
 * machine, in an execution that knows no pace yet (a flow's first): the runner's clock starts just
 * before the start request, the server's when the request arrives (half a start round trip later);
 * the first poll goes out at once, each next one after the runner's wait (`runnerSchedule`), and
 * the first poll that reaches the server after the end sees it.
 */
function predictFirstHttpsWall(totalMs, startRtt, pollRtt) {
  const schedule = runnerSchedule();
  let sentAt = startRtt;
  for (let polls = 1; ; polls++) {
    if (sentAt + pollRtt / 2 - startRtt / 2 >= totalMs) return { wallMs: sentAt + pollRtt, polls, sentAt };
    const answeredAt = sentAt + pollRtt;
    sentAt = answeredAt + schedule.waitMs(answeredAt, answeredAt - startRtt, 0, TIMED_STEPS.length);
  }
}

/** Per step of the timed flow: configured, what every HTTPS repeat reported, and the worst difference. */
function stepLatencyRows(report) {
  const repeats = resultOf(report, 'https').repeats;
  return TIMED_STEPS.map((step, i) => {
    const reported = repeats.map((r) => {
      const entry = r.steps[i];
      return entry?.service === step.service ? entry.latency_ms : null;
    });
    const diffs = reported.map((ms) => (ms === null ? Infinity : Math.abs(ms - step.latencyMs)));
    return { service: step.service, configured: step.latencyMs, reported, maxDiff: Math.max(...diffs), wrong: diffs.filter((d) => d !== 0).length };
  });
}

/** Client wall-clock of every repeat over `transport`, in the report's order. */
function wallClocks(report, transport) {
  return resultOf(report, transport).repeats.map((r) => {
    if (r.execution !== 'ok' || typeof r.wall_ms !== 'number') throw new Error(`timed flow over ${transport}: repeat ${r.index} ${r.execution}: ${r.error ?? ''}`);
    return r.wall_ms;
  });
}

/** Median and worst of `walls` minus `expectedMs`. */
function excess(walls, expectedMs) {
  const diffs = walls.map((w) => w - expectedMs);
  return { median: median(diffs), worst: diffs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)) };
}

function resultOf(report, transport) {
  const result = report.results.find((r) => r.flow === 'timed' && r.transport === transport);
  if (!result) throw new Error(`the report has no result for the timed flow over ${transport}`);
  if (result.status !== 'pass') throw new Error(`timed flow over ${transport}: ${result.status}: ${result.message}`);
  return result;
}

function listMs(values) {
  return values.map((ms) => Math.round(ms)).join(', ');
}

function signed(ms) {
  return `${ms >= 0 ? '+' : '-'}${formatMs(Math.abs(ms))}`;
}
