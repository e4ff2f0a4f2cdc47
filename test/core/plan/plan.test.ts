import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { compileSchema } from '../../../src/core/text/schema.js';
import { planHasChanges, renderPlanJson } from '../../../src/core/plan/index.js';
import { file, plan, planSchema, role } from '../roles/builders.js';

const actions = (p: ReturnType<typeof plan>): string[] => p.changes.map((c) => `${c.action} ${c.name}`);

describe('computePlan: matching and changes', () => {
  test('a file equal to its remote Role is unchanged; no changes', () => {
    const p = plan([file('a')], [role('a')]);
    expect(p.changes).toEqual([]);
    expect(p.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 1, unmanaged: 0 });
    expect(planHasChanges(p)).toBe(false);
  });

  test('a file with no remote Role is a create recording the absent name', () => {
    const p = plan([file('new')], []);
    expect(p.changes).toEqual([
      {
        action: 'create',
        name: 'new',
        file: 'roles/new.md',
        after: { name: 'new', description: 'new role', content: 'You are new.' },
        remote_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
    ]);
    expect(planHasChanges(p)).toBe(true);
  });

  test('a changed description is an update of that field only, without a diff', () => {
    const [change] = plan([file('a', { description: 'new words' })], [role('a')]).changes;
    expect(change).toMatchObject({ action: 'update', id: 'id-a', fields: ['description'] });
    expect(change?.diff).toBeUndefined();
  });

  test('changed content is an update with a unified diff', () => {
    const [change] = plan([file('a', { content: 'line 1\nline 2 changed\nline 3' })], [role('a', { content: 'line 1\nline 2\nline 3' })]).changes;
    expect(change?.fields).toEqual(['content']);
    expect(change?.diff).toBe('--- a (tenant)\n+++ roles/a.md\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line 2 changed\n line 3\n');
  });

  test('a trailing newline difference shows in the diff', () => {
    const [change] = plan([file('a', { content: 'x\n' })], [role('a', { content: 'x' })]).changes;
    expect(change?.diff).toContain('\n x\n+\n');
  });

  test('a file with an id matches by id: a changed name is a rename', () => {
    const p = plan([file('support-v2', { id: 'r1' })], [role('support', { id: 'r1', description: 'support-v2 role', content: 'You are support-v2.' })]);
    expect(p.changes).toHaveLength(1);
    expect(p.changes[0]).toMatchObject({
      action: 'update',
      name: 'support-v2',
      id: 'r1',
      fields: ['name'],
      before: { name: 'support' },
      after: { name: 'support-v2' },
    });
    expect(p.unmanaged).toEqual([]);
  });

  test('an id no remote Role has is an issue at the id key', () => {
    const p = plan([file('a', { id: 'nope', at: { name: { line: 2, col: 1 }, id: { line: 4, col: 1 } } })], [role('a')]);
    expect(p.issues.map(formatIssue)).toEqual([
      'roles/a.md:4:1: id "nope" not found on tenant local: fix it, or remove it to create the Role',
    ]);
  });

  test('a name held by two remote Roles is an issue for that file, and neither Role is deleted', () => {
    const p = plan([file('dup')], [role('dup', { id: 'r1' }), role('dup', { id: 'r2' })], { prune: true });
    expect(p.issues.map(formatIssue)).toEqual([
      'roles/dup.md:2:1: name "dup" is held by 2 Roles on the tenant (ids r1, r2): add "id: <one of them>" to pin the one this file manages',
    ]);
    expect(p.changes).toEqual([]);
  });

  test('pinning the id resolves a duplicated remote name', () => {
    const p = plan([file('dup', { id: 'r2' })], [role('dup', { id: 'r1' }), role('dup', { id: 'r2' })]);
    expect(p.issues).toEqual([]);
    expect(p.unmanaged).toEqual([{ id: 'r1', name: 'dup' }]);
  });

  test('files sharing a name, each pinned by id, match their Roles by id: no change, no issue', () => {
    const remote = [role('foo', { id: 'r1', content: 'one' }), role('foo', { id: 'r2', content: 'two' })];
    const p = plan([file('foo', { id: 'r2', file: 'roles/foo-3.md', content: 'two' }), file('foo', { id: 'r1', file: 'roles/foo-2.md', content: 'one' })], remote, { prune: true });
    expect(p.issues).toEqual([]);
    expect(p.changes).toEqual([]);
    expect(p.summary).toMatchObject({ unchanged: 2, unmanaged: 0 });
  });

  test('a name whose remote Role another file claimed by id is a create', () => {
    const p = plan([file('y', { id: 'r1' }), file('x')], [role('x', { id: 'r1' })]);
    expect(actions(p)).toEqual(['update y', 'create x']);
  });

  test('duplicate file names are issues of the plan too', () => {
    const p = plan([file('a'), file('a', { file: 'roles/other.md' })], []);
    expect(p.issues.map(formatIssue)).toEqual(['roles/a.md:2:1: name "a" is also used by roles/other.md:2:1: each Role needs exactly one file (for Roles that share a name on the tenant, pin each file to its Role with "id:")']);
  });
});

describe('computePlan: prune, unmanaged, protect, ignore, max_deletes', () => {
  test('without prune, Roles with no file are listed as unmanaged, not deleted', () => {
    const p = plan([], [role('b'), role('a')]);
    expect(p.changes).toEqual([]);
    expect(p.unmanaged).toEqual([{ id: 'id-a', name: 'a' }, { id: 'id-b', name: 'b' }]);
    expect(p.summary.unmanaged).toBe(2);
  });

  test('with prune, they are deleted', () => {
    const p = plan([], [role('a')], { prune: true });
    expect(p.changes).toEqual([
      { action: 'delete', name: 'a', id: 'id-a', before: { name: 'a', description: 'a role', content: 'You are a.' }, remote_hash: expect.any(String) },
    ]);
    expect(p.unmanaged).toEqual([]);
  });

  test('protect refuses updates and deletes of matching Roles, not creates', () => {
    const p = plan([file('admin-main', { content: 'changed' }), file('admin-new')], [role('admin-main'), role('admin-old'), role('other')], {
      prune: true,
      protect: ['admin-*'],
    });
    expect(p.guards).toEqual([
      { kind: 'protected', name: 'admin-main', message: 'Role "admin-main" is protected (protect: "admin-*"): refusing to update it' },
      { kind: 'protected', name: 'admin-old', message: 'Role "admin-old" is protected (protect: "admin-*"): refusing to delete it' },
    ]);
  });

  test('a rename of a protected Role is refused', () => {
    const p = plan([file('renamed', { id: 'r1' })], [role('admin', { id: 'r1', description: 'renamed role', content: 'You are renamed.' })], { protect: ['adm?n'] });
    expect(p.guards.map((g) => g.message)).toEqual(['Role "admin" is protected (protect: "adm?n"): refusing to update it']);
  });

  test('ignore leaves matching Roles and files out entirely', () => {
    const p = plan([file('tmp-file'), file('kept', { content: 'new' })], [role('tmp-remote'), role('kept')], { prune: true, ignore: ['tmp-*'] });
    expect(actions(p)).toEqual(['update kept']);
    expect(p.unmanaged).toEqual([]);
  });

  test('an id pointing at an ignored Role is an issue', () => {
    const p = plan([file('x', { id: 'r9' })], [role('tmp-1', { id: 'r9' })], { ignore: ['tmp-*'] });
    expect(p.issues.map((i) => i.message)).toEqual(['id "r9" is Role "tmp-1", which matches ignore "tmp-*"']);
  });

  test('more deletes than max_deletes is a guard violation', () => {
    const remote = [role('a'), role('b'), role('c')];
    // With no role files at all, prune is refused anyway unless allowed (plan-empty-prune.test.ts).
    expect(plan([], remote, { prune: true, maxDeletes: 3, allowEmptyPrune: true }).guards).toEqual([]);
    expect(plan([], remote, { prune: true, maxDeletes: 2, allowEmptyPrune: true }).guards).toEqual([
      { kind: 'max_deletes', message: '3 deletes planned, more than max_deletes (2): refusing the plan' },
    ]);
  });
});

describe('computePlan: notes and order', () => {
  test('a delete and a create with the same content suggest pinning the id', () => {
    const p = plan([file('new-name', { description: 'd', content: 'same' })], [role('old-name', { id: 'r7', description: 'd', content: 'same' })], { prune: true });
    expect(actions(p)).toEqual(['create new-name', 'delete old-name']);
    expect(p.notes).toEqual([
      '"old-name" (id r7) and "new-name" (roles/new-name.md) have the same description and content: if this is a rename, add "id: r7" to roles/new-name.md to rename the Role instead of deleting it and creating a new one',
    ]);
  });

  test('without prune the same situation warns about a second copy', () => {
    const p = plan([file('new-name', { description: 'd', content: 'same' })], [role('old-name', { description: 'd', content: 'same' })]);
    expect(p.notes[0]).toContain('instead of creating a second copy');
  });

  test('different content is no rename note', () => {
    expect(plan([file('n', { content: 'x' })], [role('o', { content: 'y' })], { prune: true }).notes).toEqual([]);
  });

  test('deletes that free a needed name come first, then updates, creates, other deletes', () => {
    const p = plan(
      [file('x', { id: 'r1' }), file('b-update', { content: 'changed' }), file('a-create')],
      [role('old', { id: 'r1', description: 'x role', content: 'You are x.' }), role('x', { id: 'r2' }), role('b-update'), role('z-gone'), role('c-gone')],
      { prune: true },
    );
    expect(actions(p)).toEqual(['delete x', 'update b-update', 'update x', 'create a-create', 'delete c-gone', 'delete z-gone']);
    expect(p.summary).toEqual({ create: 1, update: 2, delete: 3, unchanged: 0, unmanaged: 0 });
  });
});

describe('the plan as data', () => {
  test('records the tenant without credentials, the options and the time given', () => {
    const p = plan([], [], {
      tenant: { name: 'staging', baseUrl: 'https://user:secret@example.invalid/t/acme/?token=abc#x' },
      createdAt: '2025-01-02T03:04:05.000Z',
      maxDeletes: 10,
      protect: ['admin-*'],
    });
    expect(p.tenant).toEqual({ name: 'staging', base_url: 'https://example.invalid/t/acme' });
    expect(p.created_at).toBe('2025-01-02T03:04:05.000Z');
    expect(p.options).toEqual({ prune: false, protect: ['admin-*'], ignore: [], max_deletes: 10 });
    expect(renderPlanJson(p)).not.toContain('secret');
  });

  test('validates against schemas/plan.schema.json, after a JSON round-trip', () => {
    const p = plan(
      [file('x', { id: 'r1' }), file('upd', { content: 'new' }), file('add'), file('bad', { id: 'missing' })],
      [role('old', { id: 'r1' }), role('upd'), role('gone'), role('admin-keep')],
      { prune: true, protect: ['admin-*'], maxDeletes: 1, createdAt: '2025-01-01T00:00:00.000Z' },
    );
    const validate = compileSchema(planSchema);
    const ok = validate(JSON.parse(renderPlanJson(p)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(p.guards.map((g) => g.kind)).toEqual(['protected', 'max_deletes']);
  });

  test('the schema rejects a plan missing its summary', () => {
    const { summary: _, ...rest } = plan([], []);
    expect(compileSchema(planSchema)(rest)).toBe(false);
  });
});
