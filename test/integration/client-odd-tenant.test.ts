import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/tenant/client.js';
import { everyText, oddTenant, rejection, targetFor, type VerboseLine } from './client-kit.js';

/**
 * Answers the emulator never gives but a real tenant (or a proxy in front of it) might. Each test
 * runs a small real server on 127.0.0.1 with one handler.
 */
const TOKEN = 'odd-Tenant-t0ken';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(handle: (req: IncomingMessage, res: ServerResponse) => void, retries = 0) {
  const server = await oddTenant(handle);
  const lines: VerboseLine[] = [];
  const slept: number[] = [];
  const client = createClient({
    target: targetFor(server, { retries }),
    token: TOKEN,
    onRequest: (line) => lines.push(line),
    sleep: async (ms) => void slept.push(ms),
  });
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return { server, client, lines, slept };
}

function reply(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

describe('client: answers of an unusual tenant', () => {
  it('names the endpoint when a body is not JSON or has the wrong shape', async () => {
    const bodies = ['<html>oops</html>', '{"roles": []}', '[{"id": "a", "name": "x"}, {"name": "no id"}]', '[{"id": "a", "name": "x", "content": 3}]'];
    const { client } = await setup((_req, res) => reply(res, 200, bodies.shift() ?? '[]'));
    const messages = [];
    for (let i = 0; i < 4; i++) messages.push((await rejection(client.listRoles())).message);
    expect(messages).toEqual([
      'GET /admin/roles/get: 200 but the body is not JSON',
      'GET /admin/roles/get: expected a JSON array of roles, got an object',
      'GET /admin/roles/get: role #2 has no string id',
      'GET /admin/roles/get: role a has a number as content, not a string',
    ]);
  });

  it('reads an HTML error page from a proxy by its status', async () => {
    const { client } = await setup((_req, res) => reply(res, 502, '<html><body>Bad Gateway</body></html>', { 'content-type': 'text/html' }));
    expect((await rejection(client.listRoles())).message).toBe('GET /admin/roles/get: 502 bad gateway');
  });

  it('follows no redirect: the token never reaches the other origin and a create is not re-sent', async () => {
    const elsewhere = await oddTenant((_req, res) => reply(res, 200, '[]'));
    cleanups.push(() => elsewhere.close());
    const { client, server } = await setup((_req, res) => reply(res, 307, '', { location: `${elsewhere.baseUrl}/admin/roles/create` }), 3);
    const error = await rejection(client.createRole({ name: 'r', description: '', content: '' }));
    expect(error.message).toBe(
      'POST /admin/roles/create: 307 temporary redirect; redirects are not followed (the token only goes to base_url), check base_url',
    );
    expect(elsewhere.seen).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('keeps the token out of errors and verbose lines even when the tenant echoes it', async () => {
    const { client, lines } = await setup((req, res) =>
      reply(res, 400, JSON.stringify({ message: `bad header "${req.headers.authorization}" for token ${TOKEN}` })),
    );
    const error = await rejection(client.getRole(TOKEN));
    expect(error.message).toBe('GET /admin/roles/get: 400 bad header "Bearer ***" for token ***');
    expect(everyText(error) + JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('waits as long as Retry-After asks (seconds or a date), capped at 30 s', async () => {
    const answers: (() => [string, number])[] = [
      () => ['2', 429],
      () => [new Date(Date.now() + 5_000).toUTCString(), 503],
      () => ['86400', 429],
    ];
    let served = 0;
    const { client, slept } = await setup((_req, res) => {
      const next = answers[served++];
      if (!next) return reply(res, 200, '[]');
      const [after, status] = next();
      reply(res, status, '{"message":"slow down"}', { 'retry-after': after });
    }, 3);
    expect(await client.listRoles()).toEqual([]);
    expect(slept[0]).toBe(2000);
    expect(slept[1]).toBeGreaterThan(3000);
    expect(slept[1]).toBeLessThanOrEqual(5000);
    expect(slept[2]).toBe(30_000);
  });

  it('waits out a rate limit that says how long without using up the retries, within a bound', async () => {
    let limited = 3;
    const { client, slept } = await setup((_req, res) => (limited-- > 0 ? reply(res, 429, '{}', { 'retry-after': '1' }) : reply(res, 200, '[]')));
    expect(await client.listRoles()).toEqual([]);
    expect(slept).toEqual([1000, 1000, 1000]);

    // A tenant that answers 429 forever, asking for no wait: given up after two minutes' worth.
    const { client: other, server } = await setup((_req, res) => reply(res, 429, '{"message":"slow down"}', { 'retry-after': '0' }));
    expect((await rejection(other.createRole({ name: 'r', description: '', content: '' }))).message).toBe('POST /admin/roles/create: 429 slow down (after 121 attempts)');
    expect(server.seen).toHaveLength(121);
  });

  it('holds every request while the tenant asks one of them to wait', async () => {
    let release = (): void => undefined;
    const slept: number[] = [];
    const server = await oddTenant((_req, res) => (server.seen.length === 1 ? reply(res, 429, '{}', { 'retry-after': '2' }) : reply(res, 200, '[]')));
    const client = createClient({
      target: targetFor(server, { retries: 0 }),
      token: TOKEN,
      sleep: (ms) => new Promise<void>((resolve) => ((release = resolve), slept.push(ms))),
    });
    cleanups.push(async () => (await client.close(), await server.close()));
    const first = client.listRoles();
    await expect.poll(() => slept).toEqual([2000]);
    const second = client.listRoles();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.seen).toHaveLength(1);
    release();
    expect(await Promise.all([first, second])).toEqual([[], []]);
    expect(server.seen).toHaveLength(3);
    expect(slept).toEqual([2000]);
  });

  it('finds the id of a create whose answer carries none by listing', async () => {
    const { client } = await setup((req, res) => {
      if (req.method === 'POST') return reply(res, 200, 'Role created', { 'content-type': 'text/plain' });
      reply(res, 200, JSON.stringify([{ id: 'r-1', name: 'n', description: 'd', content: 'c', last_update: '2024-01-01T00:00:00.000Z' }]));
    });
    expect(await client.createRole({ name: 'n', description: 'd', content: 'c' })).toEqual({ id: 'r-1' });
  });
});
