import { describe, expect, it } from 'vitest';
import type { Role, TenantClient } from '../../src/core/model.js';
import { type RoleFile } from '../../src/core/roles/index.js';
import { computePlan } from '../../src/core/plan/index.js';
import { executePlan } from '../../src/run/roles/apply-plan.js';
import { settleWaits } from '../../src/tenant/create-once.js';
import { removeConcurrentDuplicates } from '../../src/run/roles/dedupe.js';
import { outcomeOf } from '../../src/core/apply/index.js';
import { call, emulatorPerFile } from '../helpers/emulator.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { clientFor } from './client-kit.js';

function file(name: string, content: string, id?: string): RoleFile {
  return { file: `roles/${name}.md`, name, description: 'd', content, ...(id === undefined ? {} : { id }), at: { name: { line: 2, col: 1 } } };
}

async function planFor(client: TenantClient, files: RoleFile[], prune = true) {
  const remote = await client.listRoles();
  return computePlan(files, remote, { prune, protect: [], ignore: [], tenant: { name: 'test', baseUrl: 'http://x' } });
}

async function create(em: RunningEmulator, name: string): Promise<string> {
  const reply = await call(em, 'POST', '/admin/roles/create', { body: { name, description: 'd', content: 'c' } });
  return (reply.body as { id: string }).id;
}

describe('executePlan against the emulator', () => {
  const emulator = emulatorPerFile();

  it('counts the delete of a Role someone else already deleted as done', async () => {
    const em = emulator();
    const id = await create(em, 'doomed');
    const { client } = clientFor(em);
    const plan = await planFor(client, []);
    await call(em, 'POST', '/admin/policies/delete', { body: { id } });
    const outcomes = await executePlan(plan, client, { concurrency: 2 });
    expect(outcomes).toEqual([expect.objectContaining({ action: 'delete', name: 'doomed', status: 'deleted', already_gone: true })]);
    await client.close();
  });

  it('runs the delete that frees a name before the create that takes it', async () => {
    const em = emulator();
    const holder = await create(em, 'shared');
    const renamed = await create(em, 'moving');
    const { client } = clientFor(em);
    // `moving` is renamed to `shared`, so the orphan holding `shared` must go first.
    const plan = await planFor(client, [file('shared', 'c', renamed)]);
    expect(plan.changes.map((c) => c.action)).toEqual(['delete', 'update']);
    const before = em.requests().length;
    const outcomes = await executePlan(plan, client, { concurrency: 4 });
    expect(outcomes.map((o) => o.status)).toEqual(['deleted', 'updated']);
    const sent = em.requests().slice(before).map((r) => r.path);
    expect(sent.indexOf('/admin/policies/delete')).toBeLessThan(sent.findIndex((p) => p.endsWith('/update')));
    expect(em.roles().find((r) => r.id === holder)).toBeUndefined();
    await client.close();
  });

  it('never has more than `concurrency` changes in flight', async () => {
    const em = await startEmulator({ latencyMs: 15 });
    const { client } = clientFor(em);
    let inFlight = 0;
    let most = 0;
    const counting: TenantClient = Object.create(client) as TenantClient;
    counting.createRole = async (fields) => {
      most = Math.max(most, ++inFlight);
      try {
        return await client.createRole(fields);
      } finally {
        inFlight--;
      }
    };
    const plan = await planFor(counting, Array.from({ length: 9 }, (_, i) => file(`r${i}`, 'c')));
    const outcomes = await executePlan(plan, counting, { concurrency: 3 });
    expect(outcomes.every((o) => o.status === 'created')).toBe(true);
    expect(most).toBe(3);
    await client.close();
    await em.close();
  });
});

describe('executePlan when a change fails', () => {
  it('skips a rename onto a name whose holder could not be deleted, and still runs the rest', async () => {
    const em = await startEmulator({ disable: ['POST /admin/policies/delete', 'DELETE /admin/policies/delete'] });
    try {
      const holder = await create(em, 'shared');
      const moving = await create(em, 'moving');
      const { client } = clientFor(em);
      const plan = await planFor(client, [file('shared', 'c', moving), file('other', 'new')]);
      const outcomes = await executePlan(plan, client, { concurrency: 2 });
      const byName = Object.fromEntries(outcomes.map((o) => [`${o.action} ${o.name}`, o]));
      expect(byName['delete shared']).toMatchObject({ status: 'failed', id: holder });
      expect(byName['update shared']).toMatchObject({ status: 'skipped', error: expect.stringContaining('still taken') });
      expect(byName['create other']).toMatchObject({ status: 'created' });
      const names = em.roles().map((r: Role) => r.name).sort();
      expect(names).toEqual(['moving', 'other', 'shared']);
      await client.close();
    } finally {
      await em.close();
    }
  });
});

describe('the settle window of a create whose outcome is unknown', () => {
  it('is twice the timeout after no answer, at most 5 s after a 5xx, looked at four times', () => {
    expect(settleWaits(1_000, false)).toEqual([250, 250, 500, 1_000]);
    expect(settleWaits(30_000, false).reduce((a, b) => a + b)).toBe(60_000);
    expect(settleWaits(30_000, true)).toEqual([625, 625, 1_250, 2_500]);
    expect(settleWaits(250, true).reduce((a, b) => a + b)).toBe(500);
  });
});

describe('the check after applying, against the emulator', () => {
  it('keeps the lowest id of identical copies, deletes the others, and touches nothing else', async () => {
    const em = await startEmulator();
    try {
      const { client } = clientFor(em);
      const plan = await planFor(client, [file('x', 'c'), file('y', 'c')], false);
      const outcomes = await executePlan(plan, client, { concurrency: 2 });
      // Another apply created the same Roles meanwhile, and someone made a differing "y".
      const copies = [await create(em, 'x'), await create(em, 'x')];
      const differing = await call(em, 'POST', '/admin/roles/create', { body: { name: 'y', description: 'd', content: 'other' } });
      const xs = [outcomes[0]!.id!, ...copies].sort();
      const checked = await removeConcurrentDuplicates(plan, outcomes, client, []);
      expect(checked.changed).toEqual([0]);
      expect(checked.outcomes[0]).toMatchObject({ status: 'created', id: xs[0], duplicates_removed: xs.slice(1) });
      expect(checked.outcomes[1]).toEqual(outcomes[1]);
      expect(em.roles().filter((r) => r.name === 'x').map((r) => r.id)).toEqual([xs[0]]);
      expect(em.roles().filter((r) => r.name === 'y').map((r) => r.id).sort()).toEqual([outcomes[1]!.id!, (differing.body as { id: string }).id].sort());
      await client.close();
    } finally {
      await em.close();
    }
  });

  it('reports a create whose outcome was unknown as created once its Role has appeared', async () => {
    const em = await startEmulator();
    try {
      const { client } = clientFor(em);
      const plan = await planFor(client, [file('late', 'c'), file('never', 'c')], false);
      const outcomes = plan.changes.map((c) => outcomeOf(c, 'unknown', { error: 'no response' }));
      const landed = await create(em, 'late');
      const checked = await removeConcurrentDuplicates(plan, outcomes, client, []);
      expect(checked.outcomes[0]).toEqual(expect.objectContaining({ status: 'created', id: landed, appeared_late: true }));
      expect(checked.outcomes[0]).not.toHaveProperty('error');
      expect(checked.outcomes[1]).toEqual(outcomes[1]);
      await client.close();
    } finally {
      await em.close();
    }
  });
});
