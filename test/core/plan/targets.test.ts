import { describe, expect, test } from 'vitest';
import { compileSchema } from '../../../src/core/text/schema.js';
import { renderPlanJson, savedPlanRefusals } from '../../../src/core/plan/index.js';
import { file, plan, planSchema, role } from '../roles/builders.js';

const actions = (p: ReturnType<typeof plan>): string[] => p.changes.map((c) => `${c.action} ${c.name}`);

describe('computePlan with targets (a partial plan)', () => {
  const files = [file('support-a', { content: 'new' }), file('support-b', { content: 'new' }), file('billing', { content: 'new' }), file('fresh')];
  const remote = [role('support-a'), role('support-b'), role('billing'), role('old-support'), role('old-billing')];

  test('plans only the Roles a target matches, by name or glob; prune reaches no further', () => {
    const p = plan(files, remote, { targets: ['*support*'], prune: true });
    expect(actions(p)).toEqual(['update support-a', 'update support-b', 'delete old-support']);
    expect(p.summary).toEqual({ create: 0, update: 2, delete: 1, unchanged: 0, unmanaged: 0 });
    expect(p.options.targets).toEqual(['*support*']);
    expect(p.notes[0]).toBe('partial plan: only Roles matching "*support*" are planned; the others are left as they are, and prune does not reach them');
  });

  test('without prune, only targeted Roles with no file are listed as unmanaged', () => {
    const p = plan(files, remote, { targets: ['fresh', 'old-billing'] });
    expect(actions(p)).toEqual(['create fresh']);
    expect(p.unmanaged).toEqual([{ id: 'id-old-billing', name: 'old-billing' }]);
  });

  test('a rename is in the plan when either its old or its new name is targeted', () => {
    const renamed = [file('new-name', { id: 'id-billing' })];
    expect(actions(plan(renamed, [role('billing')], { targets: ['billing'] }))).toEqual(['update new-name']);
    expect(actions(plan(renamed, [role('billing')], { targets: ['new-name'] }))).toEqual(['update new-name']);
  });

  test('a target that matches nothing says so', () => {
    const p = plan(files, remote, { targets: ['suport-a'] });
    expect(p.changes).toEqual([]);
    expect(p.notes).toContain('--target "suport-a" matches no role file and no Role on the tenant');
  });

  test('the empty-prune guard counts the targeted files: a target with no file cannot empty its Roles unasked', () => {
    const p = plan(files, remote, { targets: ['old-*'], prune: true });
    expect(p.guards.map((g) => g.kind)).toEqual(['empty_prune']);
  });

  test('the saved partial plan records its targets, passes the schema and meets the guards again at apply', () => {
    const p = plan(files, remote, { targets: ['*support*'], prune: true });
    const saved = JSON.parse(renderPlanJson(p)) as typeof p;
    expect(compileSchema(planSchema)(saved)).toBe(true);
    expect(saved.options.targets).toEqual(['*support*']);
    expect(savedPlanRefusals(saved, { protect: [] })).toEqual([]);
    expect(savedPlanRefusals(saved, { protect: ['old-*'] })[0]).toContain('"old-support" is protected');
  });
});
