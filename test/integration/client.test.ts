import { afterEach, describe, expect, it } from 'vitest';
import type { ApiForms, TenantClient } from '../../src/core/model.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { clientFor, createUntilDone, rejection } from './client-kit.js';

const started: { emulator: RunningEmulator; client: TenantClient }[] = [];

async function tenant(options: EmulatorOptions = {}, api: ApiForms = {}) {
  const emulator = await startEmulator(options);
  const { client } = clientFor(emulator, { api });
  started.push({ emulator, client });
  return { emulator, client, count: (method: string, path: string) => countOf(emulator, method, path) };
}

function countOf(emulator: RunningEmulator, method: string, path: string): number {
  return emulator.requests().filter((r) => r.method === method && r.path === path).length;
}

afterEach(async () => {
  for (const { emulator, client } of started.splice(0)) {
    await client.close();
    await emulator.close();
  }
});

describe('client: Roles', () => {
  it('creates, lists, gets, updates and deletes with content kept byte for byte', async () => {
    const { client, emulator } = await tenant();
    const samples = [
      { name: 'crlf', description: 'Windows\r\nlines', content: 'one\r\ntwo\r\n\r\n' },
      { name: 'unicode ✓', description: 'é 🙂 e\u0301', content: '# Rôle\n\n👩‍💻 \u0000 \t tab\n' },
      { name: 'empty', description: '', content: '' },
    ];
    const ids: string[] = [];
    for (const fields of samples) ids.push((await client.createRole(fields)).id);

    const listed = await client.listRoles();
    for (const [i, fields] of samples.entries()) {
      expect(listed.find((r) => r.id === ids[i])).toMatchObject(fields);
      const got = await client.getRole(ids[i]!);
      expect(got).toMatchObject({ ...fields, id: ids[i] });
      expect(got?.lastUpdated).toMatch(/Z$/);
      expect(got?.createdAt).toMatch(/Z$/);
    }

    await client.updateRole(ids[0]!, { name: 'crlf-2', description: 'd', content: 'new\r\n' });
    expect(await client.getRole(ids[0]!)).toMatchObject({ name: 'crlf-2', description: 'd', content: 'new\r\n' });

    await client.deleteRole(ids[1]!);
    expect(await client.getRole(ids[1]!)).toBeUndefined();
    expect(emulator.roles().map((r) => r.id)).toEqual([ids[0], ids[2]]);
  });

  it.each(['404', 'empty', 'error200'] as const)('reads an unknown id answered with %s as absent', async (unknownId) => {
    const { client } = await tenant({ unknownId });
    await client.createRole({ name: 'present', description: '', content: 'x' });
    expect(await client.getRole('no-such-id')).toBeUndefined();
  });

  it('reads last_update when the tenant answers that name', async () => {
    const { client } = await tenant({ lastUpdateField: 'last_update' });
    const { id } = await client.createRole({ name: 'r', description: '', content: 'c' });
    const [role] = await client.listRoles();
    expect(role?.id).toBe(id);
    expect(role?.lastUpdated).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });
});

describe('client: interface forms', () => {
  it('falls back to the other form of create, update and delete, probing each once', async () => {
    const { client, count } = await tenant({
      disable: ['POST /admin/roles/create', 'POST /admin/roles/update', 'POST /admin/policies/delete'],
    });
    const created = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((name) => client.createRole({ name, description: '', content: name })),
    );
    await Promise.all(created.slice(0, 3).map(({ id }) => client.updateRole(id, { name: `${id}!`, description: 'u', content: 'u' })));
    await Promise.all(created.slice(3).map(({ id }) => client.deleteRole(id)));

    expect(count('POST', '/admin/roles/create')).toBe(1);
    expect(count('POST', '/admin/role/create')).toBe(5);
    expect(count('POST', '/admin/roles/update')).toBe(1);
    expect(count('POST', '/admin/policies/update')).toBe(3);
    expect(count('POST', '/admin/policies/delete')).toBe(1);
    expect(count('DELETE', '/admin/policies/delete')).toBe(2);
  });

  it('learns a form only from an answer that proves it: a 5xx during the probe proves nothing', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
    const probeStatuses: number[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { client, emulator } = await tenant({ disable: ['POST /admin/roles/create'], failRate: 0.4, seed });
      await createUntilDone(client, names.map((name) => ({ name, description: '', content: '' })));
      expect(emulator.roles().map((r) => r.name).sort()).toEqual(names);
      const probes = emulator.requests().filter((r) => r.path === '/admin/roles/create');
      expect(probes.filter((r) => r.status === 404)).toHaveLength(1);
      probeStatuses.push(...probes.map((r) => r.status));
    }
    expect(probeStatuses.some((status) => status >= 500)).toBe(true);
  });

  it('uses pinned forms without probing', async () => {
    const { client, count } = await tenant({}, { create: '/admin/role/create', update: '/admin/policies/update', delete: 'delete' });
    const { id } = await client.createRole({ name: 'p', description: '', content: 'c' });
    await client.updateRole(id, { name: 'p', description: 'd', content: 'c' });
    await client.deleteRole(id);
    expect(count('POST', '/admin/roles/create') + count('POST', '/admin/roles/update') + count('POST', '/admin/policies/delete')).toBe(0);
    expect([count('POST', '/admin/role/create'), count('POST', '/admin/policies/update'), count('DELETE', '/admin/policies/delete')]).toEqual([1, 1, 1]);
  });

  it('reports a pinned form the tenant lacks, without trying the other', async () => {
    const { client, count } = await tenant({ disable: ['POST /admin/role/create'] }, { create: '/admin/role/create' });
    const error = await rejection(client.createRole({ name: 'p', description: '', content: 'c' }));
    expect(error.message).toBe('POST /admin/role/create: 404 not found: POST /admin/role/create');
    expect(count('POST', '/admin/roles/create')).toBe(0);
  });

  it('tells "no such role" from "no such route": an unknown id is not a reason to probe', async () => {
    const { client, count } = await tenant();
    const update = await rejection(client.updateRole('ghost', { name: 'g', description: '', content: '' }));
    expect(update.message).toBe('POST /admin/roles/update: 404 role not found');
    const remove = await rejection(client.deleteRole('ghost'));
    expect(remove.message).toBe('POST /admin/policies/delete: 404 role not found');
    expect(count('POST', '/admin/policies/update') + count('DELETE', '/admin/policies/delete')).toBe(0);
  });

  it('names both forms when the tenant has neither', async () => {
    const { client } = await tenant({ disable: ['POST /admin/roles/create', 'POST /admin/role/create'] });
    const error = await rejection(client.createRole({ name: 'x', description: '', content: '' }));
    expect(error.message).toMatch(/^POST \/admin\/roles\/create: 404 .*; POST \/admin\/role\/create: 404 .*pin it with "api:"/);
  });
});
