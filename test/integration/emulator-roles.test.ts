import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { call, emulatorPerFile } from '../helpers/emulator.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('emulator: Roles', () => {
  const emulator = emulatorPerFile();

  it('creates through both path forms and lists the Roles with the interface fields', async () => {
    const a = await call(emulator(), 'POST', '/admin/roles/create', { body: { name: 'alpha', description: 'A', content: 'one' } });
    const b = await call(emulator(), 'POST', '/admin/role/create', { body: { name: 'beta', description: '', content: 'two' } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ message: 'Role created', id: expect.stringMatching(UUID) });
    expect(b.body).toEqual({ message: 'Role created', id: expect.stringMatching(UUID) });

    const list = await call(emulator(), 'GET', '/admin/roles/get');
    expect(list.status).toBe(200);
    const roles = list.body as Record<string, string>[];
    const alpha = roles.find((r) => r['id'] === (a.body as { id: string }).id)!;
    expect(Object.keys(alpha).sort()).toEqual(['content', 'created_at', 'description', 'id', 'last_updated', 'name']);
    expect(alpha).toMatchObject({ name: 'alpha', description: 'A', content: 'one' });
    expect(alpha['created_at']).toMatch(ISO_MS);
    expect(alpha['last_updated']).toBe(alpha['created_at']);
    expect(roles.some((r) => r['name'] === 'beta' && r['description'] === '')).toBe(true);
  });

  it('gets one Role by id as a one-element array', async () => {
    const { body } = await call(emulator(), 'POST', '/admin/roles/create', { body: { name: 'by-id', description: 'd', content: 'c' } });
    const id = (body as { id: string }).id;
    const got = await call(emulator(), 'GET', `/admin/roles/get?id=${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual([expect.objectContaining({ id, name: 'by-id', description: 'd', content: 'c' })]);
  });

  it('stores content byte for byte, and allows duplicate names', async () => {
    const content = 'line 1\r\n  indented\ttab\n\nunicode: é 🙂 \u0000 end\n\n';
    const first = await call(emulator(), 'POST', '/admin/roles/create', { body: { name: 'twin', description: '', content } });
    const second = await call(emulator(), 'POST', '/admin/roles/create', { body: { name: 'twin', description: '', content } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const got = await call(emulator(), 'GET', `/admin/roles/get?id=${(first.body as { id: string }).id}`);
    expect((got.body as { content: string }[])[0]!.content).toBe(content);
    expect(emulator().roles().filter((r) => r.name === 'twin')).toHaveLength(2);
  });

  it('updates through both path forms, with their own message texts', async () => {
    const { body } = await call(emulator(), 'POST', '/admin/roles/create', { body: { name: 'u', description: 'd', content: 'c' } });
    const id = (body as { id: string }).id;
    const created = emulator().roles().find((r) => r.id === id)!;
    await new Promise((r) => setTimeout(r, 5));

    const roles = await call(emulator(), 'POST', '/admin/roles/update', { body: { id, name: 'u2', description: 'd2', content: 'c2' } });
    expect(roles.body).toEqual({ message: 'Role updated', id });
    const policies = await call(emulator(), 'POST', '/admin/policies/update', { body: { id, name: 'u3', description: 'd3', content: 'c3' } });
    expect(policies.body).toEqual({ message: 'Policy updated', id });

    const after = emulator().roles().find((r) => r.id === id)!;
    expect(after).toMatchObject({ name: 'u3', description: 'd3', content: 'c3', createdAt: created.createdAt });
    expect(after.lastUpdated! > created.lastUpdated!).toBe(true);
  });

  it('deletes with a POST body and with DELETE ?id=', async () => {
    const ids: string[] = [];
    for (const name of ['del-post', 'del-query']) {
      const { body } = await call(emulator(), 'POST', '/admin/roles/create', { body: { name, description: '', content: '' } });
      ids.push((body as { id: string }).id);
    }
    const byPost = await call(emulator(), 'POST', '/admin/policies/delete', { body: { id: ids[0] } });
    expect(byPost).toMatchObject({ status: 200, body: { message: 'Policy deleted', id: ids[0] } });
    const byQuery = await call(emulator(), 'DELETE', `/admin/policies/delete?id=${ids[1]}`);
    expect(byQuery).toMatchObject({ status: 200, body: { message: 'Policy deleted', id: ids[1] } });
    expect(emulator().roles().some((r) => ids.includes(r.id))).toBe(false);
  });

  it('answers unknown ids on get, update and delete with 404 role not found', async () => {
    const notFound = { status: 404, body: { message: 'role not found' } };
    expect(await call(emulator(), 'GET', '/admin/roles/get?id=nope')).toMatchObject(notFound);
    const fields = { id: 'nope', name: 'n', description: '', content: '' };
    expect(await call(emulator(), 'POST', '/admin/roles/update', { body: fields })).toMatchObject(notFound);
    expect(await call(emulator(), 'POST', '/admin/policies/delete', { body: { id: 'nope' } })).toMatchObject(notFound);
    expect(await call(emulator(), 'DELETE', '/admin/policies/delete?id=nope')).toMatchObject(notFound);
  });

  it('refuses a missing or wrong token with 401 and changes nothing', async () => {
    const before = emulator().roles().length;
    const body = { name: 'intruder', description: '', content: '' };
    for (const token of [null, 'wrong-token', `${emulator().token}x`]) {
      const reply = await call(emulator(), 'POST', '/admin/roles/create', { body, token });
      expect(reply).toMatchObject({ status: 401, body: { message: 'unauthorized' } });
    }
    expect((await call(emulator(), 'GET', '/admin/roles/get', { token: null })).status).toBe(401);
    expect(emulator().roles()).toHaveLength(before);
  });

  it('answers bad requests with 4xx {message} and keeps serving', async () => {
    const missing = { status: 400, body: { message: 'missing required parameters' } };
    const create = (opts: { body?: unknown; raw?: string }) => call(emulator(), 'POST', '/admin/roles/create', opts);
    expect(await create({ body: { name: 'x', description: 'd' } })).toMatchObject(missing);
    expect(await create({ body: { name: 'x', description: 'd', content: 42 } })).toMatchObject(missing);
    expect(await create({ body: { name: '', description: 'd', content: 'c' } })).toMatchObject(missing);
    expect(await create({ body: ['name'] })).toMatchObject(missing);
    expect(await create({})).toMatchObject(missing);
    expect(await create({ raw: '{"name": "x",' })).toMatchObject({ status: 400, body: { message: 'malformed JSON body' } });
    expect(await call(emulator(), 'POST', '/admin/roles/update', { body: { name: 'x', description: '', content: '' } })).toMatchObject(missing);
    expect(await call(emulator(), 'DELETE', '/admin/policies/delete')).toMatchObject(missing);
    expect(await call(emulator(), 'POST', '/admin/policies/delete', { body: { id: 7 } })).toMatchObject(missing);

    const huge = await create({ body: { name: 'big', description: '', content: 'x'.repeat(1024 * 1024 + 10) } });
    expect(huge).toMatchObject({ status: 413, body: { message: 'request body too large' } });

    const wrongMethod = await call(emulator(), 'PUT', '/admin/policies/delete');
    expect(wrongMethod).toMatchObject({ status: 405, body: { message: 'method not allowed' } });
    expect(wrongMethod.headers['allow']).toBe('POST, DELETE');
    expect((await call(emulator(), 'POST', '/admin/roles/get')).headers['allow']).toBe('GET');
    expect(await call(emulator(), 'GET', '/admin/nothing')).toMatchObject({ status: 404, body: { message: expect.any(String) } });

    expect(emulator().roles().some((r) => r.name === 'x' || r.name === 'big')).toBe(false);
    expect((await call(emulator(), 'GET', '/admin/roles/get')).status).toBe(200);
  });

  it('logs answered requests for tests, without the query string', async () => {
    await call(emulator(), 'GET', '/admin/roles/get?id=nope');
    expect(emulator().requests().at(-1)).toEqual({ method: 'GET', path: '/admin/roles/get', status: 404 });
  });
});

describe('emulator: tenant variants', () => {
  async function withVariant(options: EmulatorOptions, run: (e: Awaited<ReturnType<typeof startEmulator>>) => Promise<void>) {
    const emulator = await startEmulator(options);
    try {
      await run(emulator);
    } finally {
      await emulator.close();
    }
  }

  it('answers GET ?id=<unknown> as an empty array or a 200 error, when told to', async () => {
    await withVariant({ unknownId: 'empty' }, async (e) => {
      expect(await call(e, 'GET', '/admin/roles/get?id=nope')).toMatchObject({ status: 200, body: [] });
    });
    await withVariant({ unknownId: 'error200' }, async (e) => {
      expect(await call(e, 'GET', '/admin/roles/get?id=nope')).toMatchObject({ status: 200, body: { message: 'role not found' } });
    });
  });

  it('names the update time last_update when told to', async () => {
    await withVariant({ lastUpdateField: 'last_update' }, async (e) => {
      await call(e, 'POST', '/admin/roles/create', { body: { name: 'n', description: '', content: '' } });
      const [role] = (await call(e, 'GET', '/admin/roles/get')).body as Record<string, unknown>[];
      expect(role).toHaveProperty('last_update');
      expect(role).not.toHaveProperty('last_updated');
    });
  });

  it('answers a disabled form with 404, while the other form still works', async () => {
    const disable = ['POST /admin/roles/create', 'POST /admin/roles/update', 'DELETE /admin/policies/delete'];
    await withVariant({ disable }, async (e) => {
      const body = { name: 'n', description: '', content: '' };
      expect((await call(e, 'POST', '/admin/roles/create', { body })).status).toBe(404);
      const created = await call(e, 'POST', '/admin/role/create', { body });
      const id = (created.body as { id: string }).id;
      expect((await call(e, 'POST', '/admin/roles/update', { body: { id, ...body } })).status).toBe(404);
      expect((await call(e, 'POST', '/admin/policies/update', { body: { id, ...body } })).status).toBe(200);
      expect(await call(e, 'DELETE', `/admin/policies/delete?id=${id}`)).toMatchObject({ status: 404, body: { message: expect.any(String) } });
      expect((await call(e, 'POST', '/admin/policies/delete', { body: { id } })).status).toBe(200);
    });
  });

  it('refuses to start with an unknown disable form, naming it', async () => {
    await expect(startEmulator({ disable: ['PATCH /admin/roles/create'] })).rejects.toThrow(/PATCH \/admin\/roles\/create/);
  });
});
