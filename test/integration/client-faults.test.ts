import { afterEach, describe, expect, it } from 'vitest';
import { RoleflowError } from '../../src/core/errors.js';
import type { TenantClient } from '../../src/core/model.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { createClient } from '../../src/tenant/client.js';
import { clientFor, closedPort, createUntilDone, everyText, rejection, targetFor, type VerboseLine } from './client-kit.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function emulatorWith(options: EmulatorOptions): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  cleanups.push(() => emulator.close());
  return emulator;
}

function track(client: TenantClient): TenantClient {
  cleanups.unshift(() => client.close());
  return client;
}

const NAMES = Array.from({ length: 12 }, (_, i) => `role-${i}`);

describe('client: retries', () => {
  it('converges under a 50% failure rate: every change done once, no duplicate; a create answered 500 is not re-sent', async () => {
    const emulator = await emulatorWith({ failRate: 0.5, seed: 7 });
    const { client, lines } = clientFor(emulator, { retries: 10 });
    track(client);
    const { ids, unknown } = await createUntilDone(client, NAMES.map((name) => ({ name, description: 'd', content: name })));
    const created = NAMES.map((name) => ({ id: ids.get(name)! }));
    // A 500 may come after the service did the work: such a create is reported unknown, not sent again.
    expect(unknown).toBeGreaterThan(0);
    const sent500 = emulator.requests().filter((r) => r.path.endsWith('/create') && r.status === 500).length;
    expect(emulator.requests().filter((r) => r.path.endsWith('/create') && r.status === 200)).toHaveLength(NAMES.length);
    expect(sent500).toBe(unknown);
    await Promise.all(created.slice(0, 4).map(({ id }) => client.updateRole(id, { name: `${id}`, description: 'u', content: 'u' })));
    await Promise.all(created.slice(4, 8).map(({ id }) => client.deleteRole(id)));

    const roles = emulator.roles();
    expect(roles.map((r) => r.name).sort()).toEqual([...created.slice(0, 4).map((c) => c.id), ...NAMES.slice(8)].sort());
    expect(lines.some((l) => l.status === 500 || l.status === 503)).toBe(true);
    expect(lines.some((l) => l.attempt > 1)).toBe(true);
  });

  it('never duplicates a create whose answer was lost, and finishes deletes whose answer was lost', async () => {
    const emulator = await emulatorWith({ lostRate: 0.5, seed: 3 });
    const { client } = clientFor(emulator, { retries: 10 });
    track(client);
    await client.listRoles();
    const created = await Promise.all(NAMES.map((name) => client.createRole({ name, description: '', content: `${name}\n` })));

    const roles = emulator.roles();
    expect(roles.map((r) => r.name).sort()).toEqual([...NAMES].sort());
    expect(roles.map((r) => r.id).sort()).toEqual(created.map((c) => c.id).sort());
    expect(emulator.requests().some((r) => r.status === 0 && r.path.endsWith('/create'))).toBe(true);

    await Promise.all(created.map(({ id }) => client.deleteRole(id)));
    expect(emulator.roles()).toEqual([]);
  });

  it('gives up after the configured retries with the last status and the attempt count', async () => {
    const emulator = await emulatorWith({ failRate: 1, seed: 1 });
    const { client, lines } = clientFor(emulator, { retries: 2 });
    track(client);
    const error = await rejection(client.listRoles());
    expect(error).toBeInstanceOf(RoleflowError);
    expect(error.message).toMatch(/^GET \/admin\/roles\/get: 50[03] (internal server error|service unavailable) \(after 3 attempts\)$/);
    expect(lines.map((l) => l.attempt)).toEqual([1, 2, 3]);
  });

  it('ends a request that gets no answer within the timeout', async () => {
    const emulator = await emulatorWith({ latencyMs: 400 });
    const { client } = clientFor(emulator, { timeoutMs: 100, retries: 0 });
    track(client);
    expect((await rejection(client.listRoles())).message).toBe('GET /admin/roles/get: no response within 100 ms');
  });
});

describe('client: refusals and errors', () => {
  it('says the token was refused in one line', async () => {
    const emulator = await emulatorWith({ token: 'the-right-token' });
    const wrong = track(clientFor(emulator, {}, 'a-wrong-token').client);
    const refused = (await rejection(wrong.listRoles())).message;
    expect(refused).toBe(`GET /admin/roles/get: 401 unauthorized: tenant "test" at ${emulator.baseUrl} refused its token`);
    const none = track(clientFor(emulator, {}, null).client);
    expect((await rejection(none.listRoles())).message).toBe('GET /admin/roles/get: 401 unauthorized (no token was given)');
  });

  it('does not send, nor retry, a token that cannot go in a header, and does not print it', async () => {
    const emulator = await emulatorWith({});
    const secret = 'line-one\nline-two';
    const { client, lines } = clientFor(emulator, { retries: 3 }, secret);
    track(client);
    const error = await rejection(client.listRoles());
    expect(error.message).toMatch(/^GET \/admin\/roles\/get: not sent: /);
    expect(everyText(error)).not.toContain('line-one');
    expect(lines).toHaveLength(1);
    const ws = await rejection(client.openWs());
    expect(ws.message).toMatch(/^cannot open ws:\/\/127\.0\.0\.1:\d+\/ws: /);
    expect(everyText(ws)).not.toContain('line-one');
    expect(emulator.requests()).toEqual([]);
  });

  it('gives up on a WebSocket handshake that never completes, within the timeout, as unreachable, and leaves no socket open', async () => {
    const { createServer } = await import('node:net');
    // Reads the upgrade request and never answers it.
    const closed: boolean[] = [];
    const silent = createServer((socket) => {
      const at = closed.push(false) - 1;
      socket.resume().on('close', () => (closed[at] = true));
      cleanups.push(async () => void socket.destroy());
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => silent.close(() => resolve())));
    const { port } = silent.address() as import('node:net').AddressInfo;
    const { client, lines } = clientFor({ baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, token: 'a-token' }, { timeoutMs: 300 });
    track(client);
    const before = performance.now();
    const error = await rejection(client.openWs());
    expect(performance.now() - before).toBeGreaterThanOrEqual(290);
    expect(error).toMatchObject({ code: 'unreachable', message: `cannot reach ws://127.0.0.1:${port}/ws: no WebSocket handshake within 300 ms` });
    expect(lines).toMatchObject([{ method: 'GET', path: '/ws', status: 'error' }]);
    // The connection the service held is closed by the client.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toEqual([true]);
  });

  it('says an unreachable tenant cannot be reached', async () => {
    const port = await closedPort();
    const { client } = clientFor({ baseUrl: `http://127.0.0.1:${port}`, wsUrl: '', token: 'a-token' }, { retries: 1 });
    track(client);
    const error = await rejection(client.createRole({ name: 'x', description: '', content: '' }));
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED (after 2 attempts)`);
  });

  it('refuses plain http to a host that is not loopback before sending anything', async () => {
    const lines: VerboseLine[] = [];
    const client = track(
      createClient({
        target: targetFor({ baseUrl: 'http://tenant.example.com/t/acme', wsUrl: 'ws://tenant.example.com/ws' }),
        token: 'secret-token-1',
        onRequest: (line) => lines.push(line),
      }),
    );
    expect((await rejection(client.listRoles())).message).toBe(
      'refusing to send the token to http://tenant.example.com/t/acme: plain http is only allowed to loopback, use https://',
    );
    expect((await rejection(client.openWs())).message).toMatch(/^refusing to send the token to ws:\/\/tenant\.example\.com\/ws/);
    expect(lines).toEqual([]);
  });

  it('keeps the token out of every error and verbose line', async () => {
    const secret = 'tok-S3cr3t/with+chars';
    const emulator = await emulatorWith({ token: 'other' });
    const port = await closedPort();
    const texts: string[] = [];
    const { client, lines } = clientFor(emulator, { wsAuth: 'query', retries: 1 }, secret);
    track(client);
    const down = track(clientFor({ baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, token: '' }, {}, secret).client);
    for (const attempt of [
      () => client.listRoles(),
      () => client.getRole(secret),
      () => client.deleteRole(secret),
      () => client.openWs(),
      () => down.listRoles(),
      () => down.openWs(),
    ]) {
      texts.push(everyText(await rejection(attempt())));
    }
    texts.push(JSON.stringify(lines));
    expect(lines.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
  });
});
