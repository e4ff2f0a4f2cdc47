import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { closedPort, oddTenant } from '../integration/client-kit.js';
import { suite, type Suite } from './test-kit.js';

/** One HTTPS test of the flow `starts`, over when one step is logged. */
const STARTS = 'flow: starts\ntransport: https\ntests:\n  - { name: once, until: { steps: 1 } }\n';

const LOG = [{ count: '1', service: 'only', status: 'completed', latency: { milliseconds: 12 } }];

/**
 * A tenant on 127.0.0.1 whose flow starts answer `starts[i]` to the i-th start (the last one for
 * every later start: `hang` never answers), whose execution log holds one completed step, and
 * which holds no Role (`test` lists them before and after the run).
 */
async function tenant(starts: ({ status: number; headers?: Record<string, string> } | 'hang')[]) {
  let seen = 0;
  const server = await oddTenant((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/admin/stats') return json(res, 200, LOG);
    if (req.url?.startsWith('/admin/roles/get')) return json(res, 200, []);
    const answer = starts[Math.min(seen++, starts.length - 1)]!;
    if (answer === 'hang') return;
    json(res, answer.status, answer.status === 200 ? { flowId: 'f-1', executionId: `e-${seen}` } : { message: `answer ${answer.status}` }, answer.headers);
  });
  onTestFinished(() => server.close());
  return { ...server, starts: () => server.seen.filter((r) => r.url === '/flow/starts').length };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** `roleflow test --json` against `baseUrl` with 3 retries allowed (and `timeout` per request). */
async function runAgainst(s: Suite, baseUrl: string, timeout = '5s') {
  await s.write('tiny.yaml', `tenants:\n  tiny: { base_url: "${baseUrl}", retries: 3, timeout: ${timeout} }\n`);
  const r = await s.test(['--config', 'tiny.yaml', '--tenant', 'tiny', '--json'], { env: { ROLEFLOW_TOKEN: 'tiny-token-123456' } });
  return { ...r, report: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as RunReport) };
}

describe('roleflow test: a flow start is sent once', () => {
  it.each([500, 502, 503])('fails the test on a %i to the start, naming it, and never sends the start again', async (status) => {
    const t = await tenant([{ status }]);
    const s = await suite({ 'flows/starts.yaml': STARTS });
    const r = await runAgainst(s, t.baseUrl);
    expect(r.code).toBe(3);
    const repeat = r.report!.results[0]!.repeats[0]!;
    expect(repeat).toMatchObject({ status: 'error', execution: 'error', ended_by: 'error' });
    expect(repeat.error).toMatch(new RegExp(`^flow "starts" over HTTPS: POST /flow/starts: ${status} answer ${status}$`));
    expect(t.starts()).toBe(1);
  });

  it('fails the test when the start gets no answer in time, without sending it again', async () => {
    const t = await tenant(['hang']);
    const s = await suite({ 'flows/starts.yaml': STARTS });
    const r = await runAgainst(s, t.baseUrl, '300ms');
    expect(r.code).toBe(3);
    expect(r.report!.results[0]!.repeats[0]!.error).toBe('flow "starts" over HTTPS: POST /flow/starts: no response within 300 ms');
    expect(t.starts()).toBe(1);
  });

  it.each([
    ['with', { 'retry-after': '0' }],
    ['without', undefined],
  ])('sends the start again after a 429 %s Retry-After (nothing was started), and passes', async (_, headers) => {
    const t = await tenant([{ status: 429, ...(headers && { headers }) }, { status: 200 }]);
    const s = await suite({ 'flows/starts.yaml': STARTS });
    const r = await runAgainst(s, t.baseUrl);
    expect(r.code).toBe(0);
    expect(r.report!.results[0]).toMatchObject({ status: 'pass', repeats: [{ status: 'pass', ended_by: 'until' }] });
    expect(t.starts()).toBe(2);
  });

  it('tries again when the connection is refused (the start never left this machine)', async () => {
    const port = await closedPort();
    const s = await suite({ 'flows/starts.yaml': STARTS });
    await s.write('tiny.yaml', `tenants:\n  tiny: { base_url: "http://127.0.0.1:${port}", retries: 2 }\n`);
    const r = await s.test(['--config', 'tiny.yaml', '--tenant', 'tiny'], { env: { ROLEFLOW_TOKEN: 'tiny-token-123456' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(after 3 attempts\); the run was stopped/);
  });
});
