// The floor of flows.bench.mjs: one flow execution done by hand with node:http (keep-alive) and ws
// (Node 20 has no WebSocket client of its own), with only the checks needed to know the execution
// is over and went right. Anything unexpected throws.
import { Agent, request } from 'node:http';
import WebSocket from 'ws';

/** Keep-alive node:http connections for `httpsCase`, one per concurrent worker; `close()` ends them. */
export function barePool(baseUrl, connections) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return { baseUrl, agent, close: async () => agent.destroy() };
}

/**
 * POST /flow/<flow>, then POST /admin/stats until the log holds `steps` entries: at once and again,
 * or, with a `schedule` (`runnerSchedule()`), after the wait it gives, as the runner would.
 * Returns each request's round trip in ms, the start's first.
 */
export async function httpsCase(pool, token, flow, inputs, steps, schedule) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const roundTrips = [];
  const post = async (path, body) => {
    const sent = performance.now();
    const value = await postJson(pool, path, headers, body);
    roundTrips.push(performance.now() - sent);
    return value;
  };
  const startedAt = performance.now();
  const { executionId } = await post(`/flow/${flow}`, inputs);
  const answeredStartAt = performance.now();
  for (;;) {
    const entries = await post('/admin/stats', { execution_id: executionId, opCode: 'exec_logs' });
    if (!Array.isArray(entries)) throw new Error('exec_logs: not an array');
    if (entries.some((e) => e.status !== 'completed')) throw new Error('exec_logs: a step did not complete');
    if (entries.length >= steps) {
      schedule?.finished(entries);
      return roundTrips;
    }
    if (!schedule) continue;
    const answeredAt = performance.now();
    const delay = schedule.waitMs(answeredAt - startedAt, answeredAt - answeredStartAt, entries.length, steps);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * The HTTPS runner's poll schedule for one flow, mirrored exactly (src/core/runs/end-rules.ts:
 * nextPollDelay, expectedEndMs, httpsWaitMs; src/run/flows/flow-https.ts): after a poll answered
 * `elapsedMs` after the start, wait a fifth of that (25 ms to 1 s), but never past the moment the
 * flow's last finished execution says this one ends (the sum of the step latencies it reported,
 * counted from the start's answer); waits are whole ms, rounded up. `finished(entries)` learns the
 * pace from a finished execution's log, as the runner does for the rest of its run.
 */
export function runnerSchedule() {
  let known;
  return {
    waitMs(elapsedMs, sinceStartAnsweredMs, logged, steps) {
      const pace = pollIntervalMs(elapsedMs);
      const endsAt = known && steps <= known.length && logged < steps ? known.slice(0, steps).reduce((sum, ms) => sum + ms, 0) : undefined;
      const dueIn = endsAt === undefined ? Infinity : endsAt - sinceStartAnsweredMs;
      return Math.ceil(Math.max(0, Math.min(pace, dueIn > 0 ? dueIn : Infinity)));
    },
    finished(entries) {
      const latencies = entries.map((e) => latencyMs(e.latency));
      if (latencies.length > 0 && latencies.every((ms) => Number.isFinite(ms) && ms >= 0)) known = latencies;
    },
  };
}

/** The runner's pace: after a poll answered `elapsedMs` after the start, the next comes a fifth of that later (25 ms to 1 s). */
export function pollIntervalMs(elapsedMs) {
  return Math.min(1000, Math.max(25, elapsedMs * 0.2));
}

/** Connect, send the frame, read the ack, then `completed` completed messages; close. */
export function wsCase(wsUrl, token, flow, inputs, completed) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
    let acked = false;
    let seen = 0;
    const end = (error) => {
      ws.removeAllListeners('close');
      ws.close(1000);
      if (error) reject(error);
      else resolve();
    };
    ws.on('error', (error) => end(error));
    ws.on('close', () => end(new Error('WebSocket closed before the flow finished')));
    ws.on('open', () => ws.send(JSON.stringify({ ...inputs, action: 'message', service: flow })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.statusCode !== '200') return end(new Error(`WebSocket message with statusCode ${m.statusCode}`));
      if (!acked) {
        if (m.state !== 'ack') return end(new Error(`expected an ack, got ${m.state}`));
        acked = true;
      } else if (m.state === 'completed' && ++seen === completed) {
        end();
      }
    });
  });
}

/** `count` calls of `runCase(i)`, `concurrency` at a time; rejects at the first failure. */
export async function runConcurrent(count, concurrency, runCase) {
  let next = 0;
  const worker = async () => {
    while (next < count) await runCase(next++);
  };
  await Promise.all(Array.from({ length: Math.min(count, concurrency) }, worker));
}

function postJson(pool, path, headers, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${pool.baseUrl}${path}`, { method: 'POST', agent: pool.agent, headers: { ...headers, 'content-length': Buffer.byteLength(data) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`POST ${path}: status ${res.statusCode}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** A log entry's latency as the runner reads it (src/core/flows/latency.ts); NaN when unusable. */
function latencyMs(latency) {
  const amount = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined);
  const seconds = amount(latency?.seconds);
  const millis = amount(latency?.milliseconds);
  if (seconds !== undefined && millis !== undefined && millis < 1000) return seconds * 1000 + millis;
  if (millis !== undefined) return millis;
  if (seconds !== undefined && latency?.milliseconds === undefined) return seconds * 1000;
  return Number.NaN;
}
