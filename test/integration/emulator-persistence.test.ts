import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { call } from '../helpers/emulator.js';

describe('emulator: the data file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'roleflow-emulator-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps Roles across a restart, ids, timestamps and content intact', async () => {
    const dataFile = join(dir, 'state', 'roles.json');
    const first = await startEmulator({ dataFile });
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const { body } = await call(first, 'POST', '/admin/roles/create', { body: { name, description: `${name}!`, content: `é\r\n${name}\n` } });
      ids.push((body as { id: string }).id);
    }
    await call(first, 'POST', '/admin/roles/update', { body: { id: ids[1], name: 'b2', description: '', content: 'x' } });
    await call(first, 'DELETE', `/admin/policies/delete?id=${ids[2]}`);
    const before = (await call(first, 'GET', '/admin/roles/get')).text;
    await first.close();

    const second = await startEmulator({ dataFile });
    try {
      expect((await call(second, 'GET', '/admin/roles/get')).text).toBe(before);
      expect(second.roles().map((r) => r.id)).toEqual(ids.slice(0, 2));
    } finally {
      await second.close();
    }
    expect((await readdir(join(dir, 'state'))).sort()).toEqual(['roles.json']);
  });

  it('writes changes soon after they happen, not only on close', async () => {
    const dataFile = join(dir, 'roles.json');
    const e = await startEmulator({ dataFile });
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(e, 'POST', '/admin/roles/create', { body: { name: `n${i}`, description: '', content: '' } })),
      );
      let saved: unknown[] = [];
      for (let i = 0; i < 50 && saved.length < 20; i++) {
        await new Promise((r) => setTimeout(r, 20));
        saved = JSON.parse(await readFile(dataFile, 'utf8').catch(() => '[]')) as unknown[];
      }
      expect(saved).toHaveLength(20);
    } finally {
      await e.close();
    }
  });

  it('reads a file written with last_update', async () => {
    const dataFile = join(dir, 'roles.json');
    const role = { id: 'r-1', name: 'n', description: 'd', content: 'c', created_at: '2024-01-01T00:00:00.000Z', last_update: '2024-02-01T00:00:00.000Z' };
    await writeFile(dataFile, JSON.stringify([role]));
    const e = await startEmulator({ dataFile });
    try {
      expect(e.roles()).toEqual([{ id: 'r-1', name: 'n', description: 'd', content: 'c', createdAt: role.created_at, lastUpdated: role.last_update }]);
    } finally {
      await e.close();
    }
  });

  it('refuses to start on a corrupt file, naming it, and leaves it untouched', async () => {
    const dataFile = join(dir, 'roles.json');
    for (const text of ['{"truncated": [', '{"roles": []}', '[{"id": "x", "name": 3}]']) {
      await writeFile(dataFile, text);
      await expect(startEmulator({ dataFile })).rejects.toThrow(`emulator data file ${dataFile} is`);
      expect(await readFile(dataFile, 'utf8')).toBe(text);
    }
  });

  it('starts empty when the file does not exist yet', async () => {
    const e = await startEmulator({ dataFile: join(dir, 'new.json') });
    try {
      expect(e.roles()).toEqual([]);
    } finally {
      await e.close();
    }
    expect(await readdir(dir)).toEqual([]);
  });
});
