import { describe, expect, test } from 'vitest';
import { checkPlanFresh, renderPlanJson, renderPlanMarkdown, renderPlanText, type Plan } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

/** A rename (a file pinned by id with another name) into a name another Role holds. */
const renamed = (from: string, to: string, id: string) => file(to, { id, file: `roles/${from}.md`, description: `${from} role`, content: `You are ${from}.` });

describe('computePlan: a rename into a name another Role holds', () => {
  test('is noted when that Role keeps its name: after the plan two Roles would share it', () => {
    const p = plan([renamed('x', 'y', 'r1')], [role('x', { id: 'r1' }), role('y', { id: 'r2' })]);
    expect(p.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['update y']);
    expect(p.unmanaged).toEqual([{ id: 'r2', name: 'y' }]);
    const note = 'after this plan 2 Roles will be named "y": "x" (id r1) is renamed to it, and the Role with id r2 keeps it';
    expect(p.notes).toEqual([note]);
    expect(renderPlanText(p, { color: false })).toContain(`  - ${note}`);
    expect(renderPlanMarkdown(p)).toContain('2 Roles will be named');
    expect((JSON.parse(renderPlanJson(p)) as Plan).notes).toEqual([note]);
  });

  test('is noted when a role file keeps the other Role under that name', () => {
    const p = plan([renamed('x', 'y', 'r1'), file('y')], [role('x', { id: 'r1' }), role('y', { id: 'r2' })]);
    expect(p.notes).toEqual(['after this plan 2 Roles will be named "y": "x" (id r1) is renamed to it, and the Role with id r2 keeps it']);
  });

  test('two renames into one new name are noted', () => {
    const p = plan([renamed('a', 'z', 'r1'), renamed('b', 'z', 'r2')], [role('a', { id: 'r1' }), role('b', { id: 'r2' })]);
    expect(p.issues).toEqual([]);
    expect(p.notes).toEqual(['after this plan 2 Roles will be named "z": "a" (id r1), "b" (id r2) are renamed to it']);
  });

  test('is not noted when the holder is deleted or renamed away in the same plan', () => {
    const remote = [role('x', { id: 'r1' }), role('y', { id: 'r2' })];
    expect(plan([renamed('x', 'y', 'r1')], remote, { prune: true }).notes).toEqual([]);
    const swap = plan([renamed('x', 'y', 'r1'), renamed('y', 'x', 'r2')], remote);
    expect(swap.changes).toHaveLength(2);
    expect(swap.notes).toEqual([]);
  });

  test('an update that keeps its name is never noted, even on a name two Roles already share', () => {
    const remote = [role('foo', { id: 'r1' }), role('foo', { id: 'r2' })];
    const p = plan([file('foo', { id: 'r1', content: 'new' }), file('foo', { id: 'r2', file: 'roles/foo-2.md' })], remote);
    expect(p.changes.map((c) => c.action)).toEqual(['update']);
    expect(p.notes).toEqual([]);
  });
});

describe('checkPlanFresh: the new name of a planned rename', () => {
  const tenant = [role('x', { id: 'r1' })];
  const saved = (): Plan => JSON.parse(renderPlanJson(plan([renamed('x', 'y', 'r1')], tenant))) as Plan;

  test('a saved rename stays fresh while nobody takes its new name', () => {
    expect(checkPlanFresh(saved(), tenant)).toEqual({ fresh: true });
    expect(checkPlanFresh(saved(), [...tenant, role('other')])).toEqual({ fresh: true });
  });

  test('a Role that took the new name since the plan was made makes it stale', () => {
    expect(checkPlanFresh(saved(), [...tenant, role('y', { id: 'r9' })])).toEqual({
      fresh: false,
      reasons: ['the Roles named "y" changed on the tenant since the plan was made'],
    });
  });
});
