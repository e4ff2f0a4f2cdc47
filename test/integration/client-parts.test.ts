import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { backoffMs } from '../../src/tenant/http-errors.js';
import { redactUrl } from '../../src/core/text/printed-url.js';
import { isLoopback, safeTenantUrl } from '../../src/core/config/url-safety.js';
import { clientFor } from './client-kit.js';

describe('client: where the token may go', () => {
  it('allows plain http only to loopback names and addresses', () => {
    for (const host of ['localhost', '127.0.0.1', '127.200.3.4', '[::1]']) expect(isLoopback(host)).toBe(true);
    for (const host of ['localhost.example.com', '128.0.0.1', '10.0.0.1', '[::2]', '0.0.0.0']) expect(isLoopback(host)).toBe(false);
    expect(safeTenantUrl('https://tenant.example.com/t/a', 'http', 'base_url').host).toBe('tenant.example.com');
    expect(() => safeTenantUrl('ftp://tenant.example.com', 'http', 'base_url')).toThrow(
      'base_url must be a https:// URL, got ftp://tenant.example.com',
    );
    expect(() => safeTenantUrl('not a url', 'ws', 'ws_url')).toThrow('ws_url is not a valid URL: not a url');
  });

  it('talks to an emulator through the name localhost', async () => {
    const emulator = await startEmulator();
    const { client } = clientFor({ ...emulator, baseUrl: emulator.baseUrl.replace('127.0.0.1', 'localhost') });
    try {
      await client.createRole({ name: 'via-localhost', description: '', content: '' });
      expect(emulator.roles().map((r) => r.name)).toEqual(['via-localhost']);
    } finally {
      await client.close();
      await emulator.close();
    }
  });

  it('masks credential-like query values in printed URLs', () => {
    expect(redactUrl('wss://h/ws?token=abc&x=1&api_key=k')).toBe('wss://h/ws?token=***&x=1&api_key=***');
  });
});

describe('client: backoff', () => {
  it('grows exponentially with full jitter, capped', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4].map((n) => backoffMs(n, undefined, top))).toEqual([199, 399, 799, 1599]);
    expect(backoffMs(20, undefined, top)).toBe(4999);
    expect(backoffMs(3, undefined, () => 0)).toBe(0);
    expect(backoffMs(1, '0', top)).toBe(0);
  });
});
