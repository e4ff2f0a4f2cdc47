import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { call } from '../helpers/emulator.js';

/** Bytes straight onto a socket, then end it (what no HTTP client would send); resolves with the status code, 0 for none. */
function rawRequest(baseUrl: string, bytes: Buffer | string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let head = '';
    socket.on('data', (c: Buffer) => (head += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
  });
}

function wsFrames(e: RunningEmulator, frames: (string | Buffer)[]): Promise<Record<string, string>[]> {
  const ws = new WebSocket(e.wsUrl, { headers: { authorization: `Bearer ${e.token}` } });
  const got: Record<string, string>[] = [];
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => frames.forEach((f) => ws.send(f)));
    ws.on('message', (data: Buffer) => {
      got.push(JSON.parse(data.toString('utf8')) as Record<string, string>);
      if (got.length === frames.length) {
        ws.close();
        resolve(got);
      }
    });
  });
}

describe('emulator: bad input never crashes it nor touches its data file', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let emulator: RunningEmulator;
  let dataFile: string;
  let saved: string;

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('roleflow-bad-input-'));
    dataFile = join(dir, 'roles.json');
    emulator = await startEmulator({ dataFile, maxBodyBytes: 64 * 1024 });
    for (const name of ['kept-1', 'kept-2']) {
      await call(emulator, 'POST', '/admin/roles/create', { body: { name, description: 'd', content: `${name}\n` } });
    }
    saved = await savedState();
  });
  /** The data file and its change log: what a restart would read. */
  const savedState = async (): Promise<string> =>
    `${await readFile(dataFile, 'utf8').catch(() => '')}\n--log--\n${await readFile(`${dataFile}.log`, 'utf8').catch(() => '')}`;
  afterAll(async () => {
    await emulator.close();
    await cleanup();
  });

  it('answers every malformed request with a documented 4xx {message}', async () => {
    const e = emulator;
    const create = (opts: { body?: unknown; raw?: string }) => call(e, 'POST', '/admin/roles/create', opts);
    const cases: [Promise<{ status: number; body: unknown }>, number, string][] = [
      [create({ raw: '{"name": "x", "description": ' }), 400, 'malformed JSON body'],
      [create({ raw: '\u0000\u0001garbage' }), 400, 'malformed JSON body'],
      [create({ raw: '['.repeat(60_000) }), 400, 'malformed JSON body'],
      [create({ raw: 'null' }), 400, 'missing required parameters'],
      [create({ raw: '"a string"' }), 400, 'missing required parameters'],
      [create({ body: { name: 'x', description: null, content: 'c' } }), 400, 'missing required parameters'],
      [create({ body: { name: ['x'], description: '', content: 'c' } }), 400, 'missing required parameters'],
      [create({ raw: '{"__proto__": {"name": "x"}, "description": "", "content": ""}' }), 400, 'missing required parameters'],
      [create({ body: { name: 'big', description: '', content: 'x'.repeat(70 * 1024) } }), 413, 'request body too large'],
      [call(e, 'POST', '/admin/roles/update', { body: { id: 42, name: 'x', description: '', content: '' } }), 400, 'missing required parameters'],
      [call(e, 'POST', '/admin/policies/update', { body: { id: 'no-such', name: 'x', description: '', content: '' } }), 404, 'role not found'],
      [call(e, 'POST', '/admin/policies/delete', { raw: '{"id": ' }), 400, 'malformed JSON body'],
      [call(e, 'DELETE', '/admin/policies/delete?id='), 400, 'missing required parameters'],
      [call(e, 'DELETE', '/admin/policies/delete?id=%E0%A4%A'), 404, 'role not found'],
      [call(e, 'POST', '/flow/no-such-flow', { body: {} }), 404, 'flow not found: no-such-flow'],
      [call(e, 'POST', '/flow/%E0%A4%A', { body: {} }), 404, 'not found: POST /flow/%E0%A4%A'],
      [call(e, 'POST', '/flow/echo', { body: { text: 7 } }), 400, 'input "text" must be a string'],
      [call(e, 'POST', '/flow/echo', { raw: '[1,2]' }), 400, 'flow inputs must be a JSON object of strings'],
      [call(e, 'POST', '/admin/stats', { body: { execution_id: 'x', opCode: 'exec_logs' } }), 404, 'execution not found'],
      [call(e, 'POST', '/admin/stats', { body: { execution_id: 'x', opCode: 'drop_tables' } }), 400, 'unsupported opCode: drop_tables'],
      [call(e, 'POST', '/admin/stats', { body: { opCode: 'exec_logs' } }), 400, 'missing required parameters'],
      [call(e, 'PATCH', '/admin/roles/create'), 405, 'method not allowed'],
      [call(e, 'POST', '/admin/roles/create', { body: { name: 'x', description: '', content: '' }, token: 'wrong' }), 401, 'unauthorized'],
    ];
    for (const [reply, status, message] of cases) expect(await reply).toMatchObject({ status, body: { message } });
  });

  it('survives bytes no client would send, on HTTP and on the WebSocket', async () => {
    const auth = `Authorization: Bearer ${emulator.token}\r\n`;
    const invalidUtf8 = Buffer.concat([
      Buffer.from(`POST /admin/roles/create HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 4\r\nConnection: close\r\n\r\n`),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
    ]);
    expect(await rawRequest(emulator.baseUrl, invalidUtf8)).toBe(400);
    expect(await rawRequest(emulator.baseUrl, 'NONSENSE\r\n\r\n')).toBe(400);
    expect(await rawRequest(emulator.baseUrl, `POST /admin/roles/create HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 500\r\n\r\n{"na`)).toBe(400);
    const chunked = `POST /admin/roles/create HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    expect(await rawRequest(emulator.baseUrl, `${chunked}${'10400\r\n' + 'x'.repeat(0x10400) + '\r\n'}0\r\n\r\n`)).toBe(413);

    const answers = await wsFrames(emulator, ['{"action": "message", "service": ', Buffer.from([0xff, 0x00, 0x01]), '{"action":"message","service":"nope"}']);
    expect(answers.map((a) => [a['state'], a['statusCode']])).toEqual([
      ['error', '400'],
      ['error', '400'],
      ['error', '404'],
    ]);
  });

  it('left the data file as it was, and keeps serving and saving good requests', async () => {
    expect(await savedState()).toBe(saved);
    expect(emulator.roles().map((r) => r.name)).toEqual(['kept-1', 'kept-2']);

    const good = await call(emulator, 'POST', '/admin/role/create', { body: { name: 'after', description: '', content: 'ok' } });
    expect(good.status).toBe(200);
    await emulator.close();
    const restarted = await startEmulator({ dataFile });
    try {
      expect(restarted.roles().map((r) => r.name)).toEqual(['kept-1', 'kept-2', 'after']);
    } finally {
      await restarted.close();
    }
  });
});
