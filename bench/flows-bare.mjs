// The floor of flows.bench.mjs: one flow execution done by hand with bare undici and ws, with only
// the checks needed to know the execution is over and went right. Anything unexpected throws.
import { Pool } from 'undici';
import WebSocket from 'ws';

/** A keep-alive pool for `httpsCase`, one connection per concurrent worker. */
export function barePool(baseUrl, connections) {
  return new Pool(baseUrl, { connections, pipelining: 1 });
}

/**
 * POST /flow/<flow>, then POST /admin/stats until the log holds `steps` entries: at once and again,
 * or after `pollDelay(attempt)` ms (attempt counts the polls made so far, from 0). Returns each
 * request's round trip in ms, the start's first.
 */
export async function httpsCase(pool, token, flow, inputs, steps, pollDelay = () => 0) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const roundTrips = [];
  const post = async (path, body) => {
    const sent = performance.now();
    const value = await postJson(pool, path, headers, body);
    roundTrips.push(performance.now() - sent);
    return value;
  };
  const { executionId } = await post(`/flow/${flow}`, inputs);
  for (let attempt = 0; ; attempt++) {
    const entries = await post('/admin/stats', { execution_id: executionId, opCode: 'exec_logs' });
    if (!Array.isArray(entries)) throw new Error('exec_logs: not an array');
    if (entries.some((e) => e.status !== 'completed')) throw new Error('exec_logs: a step did not complete');
    if (entries.length >= steps) return roundTrips;
    const delay = pollDelay(attempt);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }
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

async function postJson(pool, path, headers, body) {
  const { statusCode, body: answer } = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
  const value = await answer.json();
  if (statusCode !== 200) throw new Error(`POST ${path}: status ${statusCode}`);
  return value;
}
