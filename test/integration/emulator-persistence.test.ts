import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDataFile } from '../../src/emulator/store/data-file.js';
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

  it('has every answered change on disk when it is answered, not only on close', async () => {
    const dataFile = join(dir, 'roles.json');
    const e = await startEmulator({ dataFile });
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(e, 'POST', '/admin/roles/create', { body: { name: `n${i}`, description: '', content: '' } })),
      );
      const listed = (await call(e, 'GET', '/admin/roles/get')).body as { id: string }[];
      await call(e, 'DELETE', `/admin/policies/delete?id=${listed[3]!.id}`);
      await call(e, 'POST', '/admin/roles/update', { body: { id: listed[5]!.id, name: 'five', description: '', content: '' } });
      // What a restart would read right now (the data file and its change log).
      const saved = (await loadDataFile(dataFile)).roles;
      expect(saved).toEqual(e.roles());
      expect(saved).toHaveLength(19);
    } finally {
      await e.close();
    }
  });

  it('compacts the log into the data file once it passes the threshold, keeping the same Roles', async () => {
    const dataFile = join(dir, 'roles.json');
    const e = await startEmulator({ dataFile, dataLogCompactBytes: 2000 });
    try {
      for (let i = 0; i < 40; i++) await call(e, 'POST', '/admin/roles/create', { body: { name: `n${i}`, description: 'd', content: 'x'.repeat(100) } });
      let data: unknown[] = [];
      for (let i = 0; i < 100 && data.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 10));
        data = JSON.parse(await readFile(dataFile, 'utf8').catch(() => '[]')) as unknown[];
      }
      // The data file holds Roles; the log only the changes since a compaction began, not all 40.
      expect(data.length).toBeGreaterThan(0);
      const logged = (await readFile(`${dataFile}.log`, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
      expect(logged).toBeLessThan(40);
      expect(data.length + logged).toBeGreaterThanOrEqual(40);
      expect((await loadDataFile(dataFile)).roles).toEqual(e.roles());
    } finally {
      await e.close();
    }
    expect(await readdir(dir)).toEqual(['roles.json']);
    expect((JSON.parse(await readFile(dataFile, 'utf8')) as unknown[]).length).toBe(40);
  });

  it('compacts a log left by a killed process on start, ignoring a torn last line', async () => {
    const dataFile = join(dir, 'roles.json');
    const a = { id: 'a', name: 'a', description: '', content: '', created_at: 't0', last_updated: 't0' };
    const b = { id: 'b', name: 'b', description: '', content: '', created_at: 't1', last_updated: 't1' };
    await writeFile(dataFile, JSON.stringify([a]));
    const log = [{ put: b }, { put: { ...a, name: 'a2', last_updated: 't2' } }, { delete: 'gone' }].map((c) => JSON.stringify(c)).join('\n');
    await writeFile(`${dataFile}.log`, `${log}\n{"put":{"id":"torn","na`);
    const e = await startEmulator({ dataFile });
    try {
      expect(e.roles().map((r) => [r.id, r.name])).toEqual([['a', 'a2'], ['b', 'b']]);
      // Folded into the data file at once; the log is gone.
      expect(await readdir(dir)).toEqual(['roles.json']);
      expect((JSON.parse(await readFile(dataFile, 'utf8')) as { name: string }[]).map((r) => r.name)).toEqual(['a2', 'b']);
    } finally {
      await e.close();
    }
    // A kill after the data file was written but before the log was emptied: replaying it again changes nothing.
    await writeFile(`${dataFile}.log`, `${log}\n`);
    const again = await startEmulator({ dataFile });
    try {
      expect(again.roles().map((r) => [r.id, r.name])).toEqual([['a', 'a2'], ['b', 'b']]);
    } finally {
      await again.close();
    }
  });

  it('refuses to start on a log line that is not a change, naming the log and the line, and leaves both files untouched', async () => {
    const dataFile = join(dir, 'roles.json');
    await writeFile(dataFile, '[]');
    for (const [text, why] of [
      ['{"put":{"id":"x"\n{"delete":"y"}\n', 'not valid JSON at line 1'],
      ['{"delete":"y"}\n{"rename":"y"}\n', 'invalid: line 2 is neither'],
      ['{"put":{"id":"x","name":3}}\n', 'invalid: line 1 has no string "name"'],
    ] as const) {
      await writeFile(`${dataFile}.log`, text);
      await expect(startEmulator({ dataFile })).rejects.toThrow(`emulator data file ${dataFile}.log is ${why}`);
      expect(await readFile(`${dataFile}.log`, 'utf8')).toBe(text);
      expect(await readFile(dataFile, 'utf8')).toBe('[]');
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
