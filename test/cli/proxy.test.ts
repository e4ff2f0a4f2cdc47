import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { suite } from './test-kit.js';

const TOKEN = 'rf-PROXY-token-5b1e9d';

/** A CONNECT proxy on 127.0.0.1 that tunnels to anywhere and records each CONNECT it was sent. */
async function connectProxy(): Promise<{ url: string; tunnels: { target: string; headers: IncomingHttpHeaders }[] }> {
  const tunnels: { target: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client, head) => {
    tunnels.push({ target: req.url ?? '', headers: req.headers });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels };
}

const emulator = await startEmulator({ token: TOKEN });
afterAll(() => emulator.close());
const port = new URL(emulator.baseUrl).port;

const FLOW = 'flow: echo\ntests:\n  - { name: through, inputs: { v: x }, until: { steps: 1, messages: 1 } }\n';
const CONFIG = `default_tenant: remote\ntenants:\n  remote: { base_url: "${emulator.baseUrl}", ws_url: "${emulator.wsUrl}" }\n`;

describe('a tenant behind a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)', () => {
  it('sends HTTP requests and the WebSocket through the proxy with CONNECT; the token only inside the tunnel', async () => {
    const proxy = await connectProxy();
    const s = await suite({ 'flows/echo.yaml': FLOW }, CONFIG);
    const r = await runCli(['test', '--json'], { cwd: s.dir, env: { ROLEFLOW_TOKEN: TOKEN, HTTP_PROXY: `${proxy.url.replace('//', '//proxy-user:proxy%20pw@')}` } });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: { passed: number } };
    expect(report.summary.passed).toBe(2);
    // Every connection, HTTP and WebSocket alike, went to the tenant through the proxy.
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.tunnels.map((t) => t.target))).toEqual(new Set([`127.0.0.1:${port}`]));
    for (const t of proxy.tunnels) {
      // The proxy's own credentials, from its URL; never the tenant's token.
      expect(t.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('proxy-user:proxy pw').toString('base64')}`);
      expect(JSON.stringify(t.headers)).not.toContain(TOKEN);
      expect(t.headers['authorization']).toBeUndefined();
    }
  });

  it('goes direct to a host NO_PROXY names (undici\'s rules: loopback is not special), and never proxies the embedded tenant', async () => {
    const proxy = await connectProxy();
    const s = await suite({ 'flows/echo.yaml': FLOW }, CONFIG);
    const direct = await runCli(['test'], { cwd: s.dir, env: { ROLEFLOW_TOKEN: TOKEN, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'example.invalid, 127.0.0.1' } });
    expect(direct.code, direct.stderr).toBe(0);
    const embedded = await runCli(['test', '--tenant', 'local'], { cwd: s.dir, env: { HTTP_PROXY: proxy.url } });
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  });

  it('refuses a proxy it cannot use in one line, before anything is sent', async () => {
    const s = await suite({ 'flows/echo.yaml': FLOW }, CONFIG);
    const socks = await runCli(['test'], { cwd: s.dir, env: { ROLEFLOW_TOKEN: TOKEN, ALL_PROXY: 'socks5://127.0.0.1:1080' } });
    expect(socks.code).toBe(1);
    expect(socks.stderr).toBe('error: ALL_PROXY socks5://127.0.0.1:1080: roleflow reaches a tenant through an http:// or https:// proxy only; set HTTPS_PROXY to one, or unset ALL_PROXY\n');
  });
});
