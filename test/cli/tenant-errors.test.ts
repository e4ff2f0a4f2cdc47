import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { emulator, project, roleText, TOKEN, type Project } from './roles-kit.js';

const FLOW = 'flow: greet\ntests:\n  - name: t\n    inputs: { name: Ada }\n';
const COMMANDS = [['plan'], ['apply', '--auto-approve'], ['pull'], ['test']];

function files(config = ''): Record<string, string> {
  return { 'roles/a.md': roleText('a', 'd', 'c'), 'flows/a.yaml': FLOW, ...(config && { 'roleflow.config.yaml': config }) };
}

function expectOneLine(r: CliResult, line: string): void {
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
}

async function everyCommand(p: Project, args: string[], env: Record<string, string>): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (const command of COMMANDS) results.push(await runCli([...command, ...args], { cwd: p.dir, env }));
  return results;
}

describe('an unsafe or invalid tenant URL is a configuration error (exit 1) for every command', () => {
  const env = { ROLEFLOW_TOKEN: TOKEN };
  const flags: [string[], string][] = [
    [['--base-url', 'http://tenant.example.invalid'], 'error: refusing to send the token to http://tenant.example.invalid: plain http is only allowed to loopback, use https://'],
    [['--base-url', 'https://[bad'], 'error: --base-url is not a valid URL: https://[bad'],
    [['--base-url', 'ftp://tenant.example.invalid'], 'error: --base-url must be a https:// URL, got ftp://tenant.example.invalid'],
  ];
  for (const [args, line] of flags) {
    it(`${args.join(' ')}`, async () => {
      const p = await project(files());
      for (const r of await everyCommand(p, args, env)) expectOneLine(r, line);
    });
  }

  it('--ws-url ws:// to another host, even for commands that never open a WebSocket; nothing is sent', async () => {
    const em = await emulator();
    const p = await project(files());
    const results = await everyCommand(p, ['--base-url', em.baseUrl, '--ws-url', 'ws://10.1.2.3/ws'], env);
    for (const r of results) expectOneLine(r, 'error: refusing to send the token to ws://10.1.2.3/ws: plain ws is only allowed to loopback, use wss://');
    expect(em.requests()).toEqual([]);
  });

  it('in the config: a located error, at validate too', async () => {
    const p = await project(
      files('default_tenant: staging\ntenants:\n  staging:\n    base_url: https://tenant.example.invalid\n    ws_url: ws://tenant.example.invalid/ws\n'),
    );
    const line =
      'roleflow.config.yaml:5:13: tenants.staging.ws_url: plain ws:// would send the token unencrypted: it is only allowed to loopback (localhost, 127.0.0.1, ::1); use wss://';
    expectOneLine(await runCli(['validate'], { cwd: p.dir }), line);
    for (const r of await everyCommand(p, [], env)) expectOneLine(r, line);
  });
});

/** A tiny tenant on 127.0.0.1 that answers every request with 403 and this message. */
async function forbiddingTenant(message: string): Promise<{ baseUrl: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('a refused token names the tenant, its base URL and the variable it came from, never the token', () => {
  const wrong = 'a-wrong-token-4f1d9c';

  async function refusedEverywhere(baseUrl: string, said: string): Promise<void> {
    const p = await project(files(`tenants:\n  staging:\n    base_url: ${baseUrl}\n    token_env: STAGING_TOKEN\n`));
    const results = await everyCommand(p, ['--tenant', 'staging'], { STAGING_TOKEN: wrong });
    const refused = `${said}: tenant "staging" at ${baseUrl} refused the token in STAGING_TOKEN`;
    for (const [i, r] of results.entries()) {
      const command = COMMANDS[i]![0]!;
      const where = command === 'test' ? `error: tenant staging cannot run the tests: POST /flow/greet: ${refused}; the run was stopped` : `error: GET /admin/roles/get: ${refused}`;
      expect({ command, code: r.code, stderr: r.stderr }).toEqual({ command, code: 1, stderr: `${where}\n` });
      // `test` shows the result of the execution that met the refusal; nothing else prints anything.
      if (command !== 'test') expect(r.stdout).toBe('');
      expect(r.stdout + r.stderr).not.toContain(wrong);
    }
  }

  it('401 from the emulator, on plan, apply, pull and test', async () => {
    const em = await emulator();
    await refusedEverywhere(em.baseUrl, '401 unauthorized');
    expect(em.roles()).toEqual([]);
  });

  it('a refused WebSocket upgrade of test --transport ws (the emulator answers 403)', async () => {
    const em = await emulator();
    const p = await project(files(`tenants:\n  staging:\n    base_url: ${em.baseUrl}\n    ws_url: ${em.wsUrl}\n    token_env: STAGING_TOKEN\n`));
    const r = await runCli(['test', '--tenant', 'staging', '--transport', 'ws'], { cwd: p.dir, env: { STAGING_TOKEN: wrong } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: tenant staging cannot run the tests: WebSocket upgrade refused: 403 Forbidden (${em.wsUrl}): ` +
        `tenant "staging" at ${em.baseUrl} refused the token in STAGING_TOKEN; the run was stopped\n`,
    );
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });

  it('403 with the tenant\'s own message', async () => {
    const tenant = await forbiddingTenant('token lacks the admin scope');
    await refusedEverywhere(tenant.baseUrl, '403 token lacks the admin scope');
    expect(tenant.requests.filter((r) => !r.startsWith('GET '))).toEqual(['POST /flow/greet']);
  });
});
