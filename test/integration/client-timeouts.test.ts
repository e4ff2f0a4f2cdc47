import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createClient, type ClientOptions } from '../../src/tenant/client.js';
import { emulatorForTest as emulatorWith, oddTenant, rejection, targetFor, type VerboseLine } from './client-kit.js';

/** A client without backoff sleeps, recording its verbose lines and its retry lines. */
function watchedClient(tenant: Pick<RunningEmulator, 'baseUrl' | 'wsUrl'>, token: string, over: Partial<ClientOptions['target']>) {
  const lines: VerboseLine[] = [];
  const retries: string[] = [];
  const client = createClient({
    target: targetFor(tenant, over),
    token,
    onRequest: (line) => lines.push(line),
    onRetry: (line) => retries.push(line),
    sleep: () => Promise.resolve(),
  });
  onTestFinished(() => client.close());
  return { client, lines, retries };
}

describe('client: a tenant that does not answer in time', () => {
  it('is tried once more after a timeout, not for every configured retry, and each retry is told in one line', async () => {
    const emulator = await emulatorWith({ latencyMs: 400 });
    const { client, lines, retries } = watchedClient(emulator, emulator.token, { timeoutMs: 60, retries: 4 });
    const error = await rejection(client.listRoles());
    expect(error.message).toBe('GET /admin/roles/get: no response within 60 ms (after 2 attempts)');
    expect(lines.map((l) => [l.attempt, l.status])).toEqual([[1, 'error'], [2, 'error']]);
    expect(retries).toEqual(['GET /admin/roles/get: no response within 60ms; trying again (2/2)']);
  });

  it('goes on when the second attempt is answered', async () => {
    let calls = 0;
    const tenant = await oddTenant((_req, res) => {
      // The first request is never answered; the rest are.
      if (++calls === 1) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    onTestFinished(() => tenant.close());
    const { client, retries } = watchedClient(tenant, 'a-token-of-some-length', { timeoutMs: 150, retries: 4 });
    expect(await client.listRoles()).toEqual([]);
    expect(retries).toEqual(['GET /admin/roles/get: no response within 150ms; trying again (2/2)']);
  });

  it('keeps the configured retries for 5xx answers, without a retry line', async () => {
    const emulator = await emulatorWith({ failRate: 1, seed: 1 });
    const { client, lines, retries } = watchedClient(emulator, emulator.token, { retries: 3 });
    await rejection(client.listRoles());
    expect(lines.map((l) => l.attempt)).toEqual([1, 2, 3, 4]);
    expect(retries).toEqual([]);
  });

  it('with retries: 0, a timeout is final and nothing is retried', async () => {
    const emulator = await emulatorWith({ latencyMs: 400 });
    const { client, lines, retries } = watchedClient(emulator, emulator.token, { timeoutMs: 60, retries: 0 });
    expect((await rejection(client.listRoles())).message).toBe('GET /admin/roles/get: no response within 60 ms');
    expect(lines).toHaveLength(1);
    expect(retries).toEqual([]);
  });
});
