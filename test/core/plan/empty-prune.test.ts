import { describe, expect, test } from 'vitest';
import { compileSchema } from '../../../src/core/text/schema.js';
import { renderPlanJson } from '../../../src/core/plan/index.js';
import { file, plan, planSchema, role } from '../roles/builders.js';

const remote = [role('a'), role('b'), role('tmp-x')];
const MESSAGE =
  'there are no role files, yet prune would delete every Role on the tenant (2): refusing the plan. ' +
  'If the roles folder is right and the tenant is to be emptied, add --allow-empty-prune (or roles.allow_empty_prune: true)';

describe('computePlan: prune with no role files at all', () => {
  test('is refused by a guard, whatever the other options', () => {
    const p = plan([], remote, { prune: true, ignore: ['tmp-*'] });
    expect(p.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['delete a', 'delete b']);
    expect(p.guards).toEqual([{ kind: 'empty_prune', message: MESSAGE }]);
    const validate = compileSchema(planSchema);
    expect(validate(JSON.parse(renderPlanJson(p)))).toBe(true);
  });

  test('goes through when allowed, and is no guard with a role file, without prune or with nothing to delete', () => {
    expect(plan([], remote, { prune: true, allowEmptyPrune: true }).guards).toEqual([]);
    expect(plan([file('a')], remote, { prune: true }).guards).toEqual([]);
    expect(plan([], remote, { prune: false }).guards).toEqual([]);
    expect(plan([], [], { prune: true }).guards).toEqual([]);
  });
});
