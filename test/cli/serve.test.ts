import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tempDir } from '../helpers/cli.js';
import { http, runOnce, serve, snapshotBin, type Served } from './serve-kit.js';

const TOKEN = 'serve-test-T0ken-4f9a1c';
const FLAG_TOKEN = 'flag-T0ken-77e2b0d3';
const role = (name: string) => ({ name, description: `about ${name}`, content: `# ${name}\n` });

let bin: string;
let dir: string;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  const snapshot = await snapshotBin();
  const temp = await tempDir('roleflow-serve-');
  bin = snapshot.bin;
  dir = temp.dir;
  cleanups.push(snapshot.cleanup, temp.cleanup);
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A served tenant that is always stopped, even when the test fails. */
async function served(args: string[], env: Record<string, string> = { ROLEFLOW_TOKEN: TOKEN }): Promise<Served> {
  const s = await serve(bin, ['--port', '0', ...args], { cwd: dir, env });
  cleanups.unshift(async () => void (await s.stop('SIGKILL')));
  return s;
}

function upgrade(wsUrl: string, token: string | null): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

describe('roleflow serve (a process)', () => {
  it('prints its base and WebSocket URLs on --port 0 and accepts only the ROLEFLOW_TOKEN token', async () => {
    const s = await served([]);
    expect(s.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.wsUrl).toBe(`${s.baseUrl.replace('http', 'ws')}/ws`);
    expect(Number(new URL(s.baseUrl).port)).toBeGreaterThan(0);

    expect(await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN)).toMatchObject({ status: 200, body: [] });
    expect(await http(s.baseUrl, 'GET', '/admin/roles/get', null)).toMatchObject({ status: 401, body: { message: 'unauthorized' } });
    expect((await http(s.baseUrl, 'GET', '/admin/roles/get', 'roleflow-dev-token')).status).toBe(401);
    expect(await upgrade(s.wsUrl, TOKEN)).toBe('open');
    expect(await upgrade(s.wsUrl, null)).toBe(403);

    expect(await s.stop()).toEqual({ code: 0, signal: null });
    expect(s.stdout()).toContain('bearer token from ROLEFLOW_TOKEN');
    expect(s.stdout() + s.stderr()).not.toContain(TOKEN);
  });

  it('takes --token over ROLEFLOW_TOKEN and never prints it, not even in --verbose lines', async () => {
    const s = await served(['--token', FLAG_TOKEN, '--verbose']);
    expect((await http(s.baseUrl, 'GET', '/admin/roles/get', FLAG_TOKEN)).status).toBe(200);
    expect((await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN)).status).toBe(401);
    expect((await http(s.baseUrl, 'GET', `/admin/roles/get?token=${FLAG_TOKEN}`, FLAG_TOKEN)).status).toBe(200);
    await s.stop();
    expect(s.stdout()).toContain('bearer token from --token');
    const lines = s.stderr().trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^GET \/admin\/roles\/get (200|401) \d+ms$/);
    expect(s.stdout() + s.stderr()).not.toContain(FLAG_TOKEN);
    expect(s.stdout() + s.stderr()).not.toContain(TOKEN);
  });

  it('keeps the Roles in --data across a restart, and writes them all when stopped by SIGTERM', async () => {
    const data = join(dir, 'persist', 'roles.json');
    const first = await served(['--data', data]);
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) ids.push(((await http(first.baseUrl, 'POST', '/admin/roles/create', TOKEN, role(name))).body as { id: string }).id);
    await http(first.baseUrl, 'POST', '/admin/policies/update', TOKEN, { id: ids[0], ...role('a2') });
    await http(first.baseUrl, 'DELETE', `/admin/policies/delete?id=${ids[2]}`, TOKEN);
    // Stopped at once: only the final write on SIGTERM can have saved the last changes.
    const listed = (await http(first.baseUrl, 'GET', '/admin/roles/get', TOKEN)).body;
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(JSON.parse(await readFile(data, 'utf8'))).toEqual(listed);

    const second = await served(['--data', data]);
    expect((await http(second.baseUrl, 'GET', '/admin/roles/get', TOKEN)).body).toEqual(listed);
    expect(listed).toMatchObject([{ id: ids[0], name: 'a2' }, { id: ids[1], name: 'b' }]);
    await second.stop();
    expect(await readdir(join(dir, 'persist'))).toEqual(['roles.json']);
  });

  it('keeps every answered create when killed -9 in a burst of creates, and starts again from a whole data file', async () => {
    const data = join(dir, 'burst.json');
    const s = await served(['--data', data]);
    const seed = (await http(s.baseUrl, 'POST', '/admin/roles/create', TOKEN, role('seed'))).body as { id: string };
    const answered: string[] = [seed.id];
    const burst = Array.from({ length: 200 }, (_, i) =>
      http(s.baseUrl, 'POST', '/admin/roles/create', TOKEN, { ...role(`burst-${i}`), content: 'x'.repeat(4000) }).then(
        (reply) => {
          answered.push((reply.body as { id: string }).id);
          if (answered.length === 121) s.child.kill('SIGKILL');
        },
        () => undefined,
      ),
    );
    await Promise.all(burst);
    expect(await s.stop()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(answered.length).toBeGreaterThanOrEqual(121);

    // Every answered create is back after the restart (a create cut short may be there too).
    const again = await served(['--data', data]);
    const list = (await http(again.baseUrl, 'GET', '/admin/roles/get', TOKEN)).body as { id: string; name: string; content: string }[];
    expect(list.length).toBeLessThanOrEqual(201);
    expect(list.map((r) => r.id)).toEqual(expect.arrayContaining(answered));
    for (const r of list) expect(r).toMatchObject({ id: expect.any(String), name: expect.stringMatching(/^(burst-\d+|seed)$/) });
    for (const r of list.filter((r) => r.name !== 'seed')) expect(r.content).toBe('x'.repeat(4000));
    // The restart folded the log into the data file, which is whole and holds the same list.
    expect(JSON.parse(await readFile(data, 'utf8'))).toEqual(list);
    await again.stop();
    // The temp file of a write the kill cut short, and the log, are gone after the restart.
    expect((await readdir(dir)).filter((f) => f.startsWith('burst.json'))).toEqual(['burst.json']);
  });

  it('answers 500 or 503 to everything with --fail-rate 1', async () => {
    const s = await served(['--fail-rate', '1', '--seed', '3']);
    const statuses = new Set<number>();
    for (let i = 0; i < 10; i++) statuses.add((await http(s.baseUrl, 'POST', '/admin/roles/create', TOKEN, role('never'))).status);
    expect(statuses).toEqual(new Set([500, 503]));
  });

  it('makes the change, then cuts the connection, with --lost-rate 1', async () => {
    const s = await served(['--lost-rate', '1']);
    await expect(http(s.baseUrl, 'POST', '/admin/roles/create', TOKEN, role('lost'))).rejects.toThrow();
    const list = await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN);
    expect(list).toMatchObject({ status: 200, body: [role('lost')] });
  });

  it('answers 429 with Retry-After past --rate-limit requests a second', async () => {
    const s = await served(['--rate-limit', '0.5']);
    expect((await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN)).status).toBe(200);
    expect(await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN)).toMatchObject({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'too many requests' } });
  });

  it('delays every answer by --latency', async () => {
    const s = await served(['--latency', '120']);
    await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN);
    const started = performance.now();
    expect((await http(s.baseUrl, 'GET', '/admin/roles/get', TOKEN)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('refuses a corrupt --data file with one line naming it, and leaves the file untouched', async () => {
    const data = join(dir, 'corrupt.json');
    const text = '[{"id": "r1", "name": "half a role",\n  "content": ';
    await writeFile(data, text);
    const r = await runOnce(bin, ['serve', '--port', '0', '--data', 'corrupt.json', '--token', FLAG_TOKEN], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: emulator data file ${data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON .*\n$`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toContain(FLAG_TOKEN);
    expect(await readFile(data, 'utf8')).toBe(text);
  });
});

describe('roleflow serve --help', () => {
  it('explains the command, its faults and persistence, with examples', async () => {
    const r = await runOnce(bin, ['serve', '--help'], { cwd: dir });
    expect(r.code).toBe(0);
    for (const text of ['--port 0', '--data FILE', '--fail-rate', '--lost-rate', '--rate-limit', '--latency', 'SIGTERM', 'ROLEFLOW_TOKEN', 'Examples', '$ roleflow serve --port 0']) {
      expect(r.stdout, text).toContain(text);
    }
  });
});

describe('roleflow serve and the config file', () => {
  it('refuses a broken roleflow.config.yaml with file:line:col and exit 1', async () => {
    const { dir: project, cleanup } = await tempDir('roleflow-serve-config-');
    cleanups.push(cleanup);
    await writeFile(join(project, 'roleflow.config.yaml'), 'roles:\n  dir: roles\n  prnue: true\n');
    const r = await runOnce(bin, ['serve', '--port', '0'], { cwd: project });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('roleflow.config.yaml:3:3: roles: unknown key "prnue" (did you mean "prune"?)\n');

    const missing = await runOnce(bin, ['serve', '--port', '0', '--config', 'nope.yaml'], { cwd: project });
    expect(missing).toMatchObject({ code: 1, stderr: 'error: config file nope.yaml not found (given with --config)\n' });
  });

  it('serves the flows of local.flows_config, relative to the config file', async () => {
    const { dir: project, cleanup } = await tempDir('roleflow-serve-config-');
    cleanups.push(cleanup);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(project, 'conf'));
    await writeFile(join(project, 'conf', 'roleflow.config.yaml'), 'local:\n  flows_config: my-flows.yaml\n');
    await writeFile(
      join(project, 'conf', 'my-flows.yaml'),
      'flows:\n  house-flow:\n    steps: [{ service: only, latency: 5ms }]\n    outputs: { results: [{ said: "${text}" }] }\n',
    );
    const s = await serve(bin, ['--port', '0', '--config', 'conf/roleflow.config.yaml'], { cwd: project, env: { ROLEFLOW_TOKEN: TOKEN } });
    cleanups.unshift(async () => void (await s.stop('SIGKILL')));
    expect(await http(s.baseUrl, 'POST', '/flow/house-flow', TOKEN, { text: 'hi' })).toMatchObject({ status: 200 });
    expect(await http(s.baseUrl, 'POST', '/flow/summarize', TOKEN, { text: 'hi' })).toMatchObject({ status: 404 });
  });
});
