import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { call } from '../helpers/emulator.js';

async function withEmulator<T>(options: EmulatorOptions, run: (e: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

const role = { name: 'r', description: '', content: 'c' };

describe('emulator: injected faults', () => {
  it('failRate=1 answers 500 or 503 before doing anything', async () => {
    await withEmulator({ failRate: 1, seed: 7 }, async (e) => {
      const replies = [];
      for (let i = 0; i < 12; i++) replies.push(await call(e, 'POST', '/admin/roles/create', { body: role }));
      expect(new Set(replies.map((r) => r.status))).toEqual(new Set([500, 503]));
      for (const r of replies) {
        if (r.status === 500) expect(r.body).toEqual({ message: 'internal server error' });
        else expect([r.body, r.headers['retry-after']]).toEqual([{ message: 'service unavailable' }, '0']);
      }
      expect(e.roles()).toEqual([]);
    });
  });

  it('makes the same fault decisions for the same seed', async () => {
    const statuses = (seed: number) =>
      withEmulator({ failRate: 0.5, seed }, async (e) => {
        const got: number[] = [];
        for (let i = 0; i < 16; i++) got.push((await call(e, 'GET', '/admin/roles/get')).status);
        return got;
      });
    const [a, b] = [await statuses(42), await statuses(42)];
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
  });

  it('lostRate=1 applies a change, then drops the connection without an answer', async () => {
    await withEmulator({ lostRate: 1 }, async (e) => {
      await expect(call(e, 'POST', '/admin/roles/create', { body: role })).rejects.toThrow();
      expect(e.roles()).toMatchObject([role]);
      const id = e.roles()[0]!.id;
      await expect(call(e, 'POST', '/admin/policies/update', { body: { id, ...role, content: 'new' } })).rejects.toThrow();
      expect(e.roles()[0]!.content).toBe('new');
      expect(e.requests().map((r) => r.status)).toEqual([0, 0]);

      const list = await call(e, 'GET', '/admin/roles/get');
      expect(list.status).toBe(200);
      const invalid = await call(e, 'POST', '/admin/roles/create', { body: {} });
      expect(invalid.status).toBe(400);
    });
  });

  it('adds latencyMs to every answer', async () => {
    await withEmulator({ latencyMs: 60 }, async (e) => {
      const began = Date.now();
      expect((await call(e, 'GET', '/admin/roles/get', { token: null })).status).toBe(401);
      expect(Date.now() - began).toBeGreaterThanOrEqual(55);
    });
  });

  it('rateLimit answers 429 with Retry-After once its bucket is empty, before the token and without doing anything', async () => {
    // Half a request a second: one token, the next in two seconds; the test's requests come well within that.
    await withEmulator({ rateLimit: { perSecond: 0.5 } }, async (e) => {
      expect((await call(e, 'POST', '/admin/roles/create', { body: role })).status).toBe(200);
      const refused = await call(e, 'POST', '/admin/roles/create', { body: role });
      expect([refused.status, refused.body, refused.headers['retry-after']]).toEqual([429, { message: 'too many requests' }, '2']);
      expect((await call(e, 'GET', '/admin/roles/get', { token: 'wrong' })).status).toBe(429);
      expect(e.roles()).toHaveLength(1);
      expect(e.requests().map((r) => r.status)).toEqual([200, 429, 429]);
    });
  });

  it('refuses nonsense options with one clear line', async () => {
    await expect(startEmulator({ rateLimit: { perSecond: 0 } })).rejects.toThrow('emulator: rateLimit.perSecond must be more than 0');
    await expect(startEmulator({ failRate: 2 })).rejects.toThrow('emulator: failRate must be between 0 and 1');
    await expect(startEmulator({ port: -1 })).rejects.toThrow(/port must be an integer/);
  });

  it('says so when its port is taken', async () => {
    await withEmulator({}, async (e) => {
      const port = Number(new URL(e.baseUrl).port);
      await expect(startEmulator({ port })).rejects.toThrow(`emulator cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    });
  });

  it('never lets the token into the request log or an error', async () => {
    await withEmulator({ token: 'sekrit-token-value' }, async (e) => {
      await call(e, 'GET', '/admin/roles/get?token=sekrit-token-value', { token: 'nope' });
      expect(JSON.stringify(e.requests())).not.toContain('sekrit');
    });
  });
});
