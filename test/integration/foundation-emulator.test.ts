import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RequestLine } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { call } from '../helpers/emulator.js';

const role = { name: 'r', description: '', content: 'c' };

describe('emulator: what serve --verbose and a failing disk rely on', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('roleflow-foundation-emulator-'));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('tells onRequest of each request once answered, with its duration, without the query, lost ones as 0', async () => {
    const lines: RequestLine[] = [];
    const e = await startEmulator({ token: 'sekrit-token-value', latencyMs: 30, onRequest: (l) => lines.push(l) });
    try {
      await call(e, 'GET', '/admin/roles/get?id=sekrit-token-value');
      await call(e, 'GET', '/admin/roles/get', { token: null });
    } finally {
      await e.close();
    }
    expect(lines.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['GET /admin/roles/get 404', 'GET /admin/roles/get 401']);
    for (const line of lines) expect(line.ms).toBeGreaterThanOrEqual(25);

    const lost: RequestLine[] = [];
    const dropping = await startEmulator({ lostRate: 1, onRequest: (l) => lost.push(l) });
    try {
      await expect(call(dropping, 'POST', '/admin/roles/create', { body: role })).rejects.toThrow();
    } finally {
      await dropping.close();
    }
    expect(lost).toMatchObject([{ method: 'POST', path: '/admin/roles/create', status: 0 }]);
  });

  it('warns once when the data file cannot be written, keeps serving, and saves once it can', async () => {
    const folder = join(dir, 'state');
    const dataFile = join(folder, 'roles.json');
    const errors: string[] = [];
    const e = await startEmulator({ dataFile, onDataFileError: (err) => errors.push(err.message) });
    try {
      // A file where the folder should be: every write fails until it is gone.
      await writeFile(folder, 'in the way');
      await call(e, 'POST', '/admin/roles/create', { body: role });
      await call(e, 'POST', '/admin/roles/create', { body: { ...role, name: 'r2' } });
      for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(errors).toEqual([expect.stringMatching(`^emulator data file ${dataFile} could not be written: `)]);
      expect((await call(e, 'GET', '/admin/roles/get')).status).toBe(200);
      await rm(folder);
    } finally {
      await e.close();
    }
    expect((JSON.parse(await readFile(dataFile, 'utf8')) as { name: string }[]).map((r) => r.name)).toEqual(['r', 'r2']);
  });

  it('rejects close() with one line when the data file still cannot be written', async () => {
    const folder = join(dir, 'blocked');
    const e = await startEmulator({ dataFile: join(folder, 'roles.json'), onDataFileError: () => undefined });
    await writeFile(folder, 'in the way');
    await call(e, 'POST', '/admin/roles/create', { body: role });
    await expect(e.close()).rejects.toThrow(/^emulator data file .*roles\.json could not be written: /);
  });

  it('refuses a latency no timer can wait, instead of answering at once with a warning', async () => {
    await expect(startEmulator({ latencyMs: 1e12 })).rejects.toThrow('emulator: latencyMs must be from 0 to 3600000 (1 h)');
  });

  it('removes temp files that a killed process left next to the data file, and only those', async () => {
    const dataFile = join(dir, 'roles.json');
    await writeFile(dataFile, '[]');
    const dead = 2 ** 22 + 12345; // above the default pid_max: no such process
    await writeFile(`${dataFile}.${dead}.1.tmp`, '[{"torn": ');
    await writeFile(`${dataFile}.${process.pid}.99.tmp`, 'ours: left alone');
    await writeFile(join(dir, 'notes.tmp'), 'unrelated');
    await mkdir(join(dir, 'sub'));
    const e = await startEmulator({ dataFile });
    await e.close();
    expect((await readdir(dir)).sort()).toEqual(['notes.tmp', 'roles.json', `roles.json.${process.pid}.99.tmp`, 'sub']);
  });
});
