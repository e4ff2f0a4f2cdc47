import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/core/model.js';
import { RoleStore, type LastUpdateField, type RoleChange } from '../../src/emulator/store/role-store.js';

// The store keeps each Role only as the JSON the service answers. Against a plain model of Role
// objects (what the store held before), every answer must be the same: one Role, the list, the
// snapshot tests read and the changes the data log writes, for any text in the fields. Without a
// data log the store serializes a Role at its first read: reads at any point answer the same.
const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '"', '\\', '\u0000', '\u2028', '\ud83d', '\ude00', '\ud83d\ude00', 'é', '{') });
const fields = fc.record({ name: text, description: text, content: text });
const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), fields }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), fields }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('missing' as const), fields }),
  fc.record({ kind: fc.constant('read' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('list' as const) }),
  fc.record({ kind: fc.constant('byName' as const), pick: fc.nat() }),
);
const restored = fc.array(
  fc.record({ id: fc.uuid(), name: text, description: text, content: text, createdAt: fc.option(text, { nil: undefined }), lastUpdated: fc.option(text, { nil: undefined }) }),
  { maxLength: 4 },
);

const answered = (role: Role, field: LastUpdateField): string =>
  JSON.stringify({ id: role.id, name: role.name, description: role.description, content: role.content, created_at: role.createdAt, [field]: role.lastUpdated });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('RoleStore', () => {
  it('answers exactly what a model of Role objects answers, for any fields and changes', () => {
    fc.assert(
      fc.property(fc.constantFrom<LastUpdateField>('last_updated', 'last_update'), fc.boolean(), restored, fc.array(op, { maxLength: 25 }), (field, logged, initial, ops) => {
        const changes: RoleChange[] = [];
        const store = new RoleStore(field, logged ? (c) => changes.push(c) : undefined);
        const model = new Map<string, Role>();
        const unique = initial.filter((r, i) => initial.findIndex((o) => o.id === r.id) === i);
        store.restore(unique);
        for (const r of unique) model.set(r.id, { ...r });
        const expected: RoleChange[] = [];
        for (const o of ops) {
          const ids = [...model.keys()];
          const target = ids.length > 0 && 'pick' in o ? ids[o.pick % ids.length]! : 'no-such-id';
          if (o.kind === 'create') {
            const id = store.create(o.fields);
            // Read through the snapshot, which leaves a Role not yet read unserialized.
            const stamp = store.snapshot().find((r) => r.id === id)!.createdAt!;
            expect(stamp).toMatch(ISO);
            const role = { id, ...o.fields, createdAt: stamp, lastUpdated: stamp };
            model.set(id, role);
            expected.push({ put: answered(role, field) });
          } else if (o.kind === 'update' || o.kind === 'missing') {
            const id = o.kind === 'missing' ? 'no-such-id' : target;
            const ok = store.update(id, o.fields);
            expect(ok).toBe(model.has(id));
            if (!ok) continue;
            const stamp = store.snapshot().find((r) => r.id === id)!.lastUpdated!;
            expect(stamp).toMatch(ISO);
            const role = { ...model.get(id)!, ...o.fields, lastUpdated: stamp };
            model.set(id, role);
            expected.push({ put: answered(role, field) });
          } else if (o.kind === 'read') {
            expect(store.json(target)).toBe(model.has(target) ? answered(model.get(target)!, field) : undefined);
          } else if (o.kind === 'list') {
            expect(store.listJson().toString('utf8')).toBe(`[${[...model.values()].map((r) => answered(r, field)).join(',')}]`);
          } else if (o.kind === 'byName') {
            const name = model.get(target)?.name ?? 'no-such-name';
            const first = [...model.values()].find((r) => r.name === name);
            expect(store.byName(name)).toEqual(first && { content: first.content, description: first.description });
          } else {
            expect(store.delete(target)).toBe(model.delete(target));
            if (target !== 'no-such-id') expected.push({ delete: target });
          }
        }
        expect(changes).toEqual(logged ? expected : []);
        expect(store.snapshot()).toStrictEqual([...model.values()].map((r) => ({ ...r, createdAt: r.createdAt, lastUpdated: r.lastUpdated })));
        expect(store.listJson().toString('utf8')).toBe(`[${[...model.values()].map((r) => answered(r, field)).join(',')}]`);
        for (const r of model.values()) expect(store.json(r.id)).toBe(answered(r, field));
        expect(store.json('no-such-id')).toBeUndefined();
      }),
    );
  });
});
