import { describe, expect, test } from 'vitest';
import { checkPlanFresh, renderPlanJson, type Plan } from '../../../src/core/plan/index.js';
import { file, plan, role, TENANT } from '../roles/builders.js';

const remote = [role('upd'), role('gone'), role('other')];
const saved = (): Plan => JSON.parse(renderPlanJson(plan([file('upd', { content: 'new' }), file('add')], remote, { prune: false }))) as Plan;
const savedWithDelete = (): Plan => JSON.parse(renderPlanJson(plan([file('upd'), file('other')], remote, { prune: true }))) as Plan;

describe('checkPlanFresh', () => {
  test('a saved plan read back against an unchanged tenant is fresh', () => {
    expect(checkPlanFresh(saved(), remote, TENANT)).toEqual({ fresh: true });
    expect(checkPlanFresh(savedWithDelete(), remote, TENANT)).toEqual({ fresh: true });
  });

  test('changes to Roles the plan does not touch keep it fresh', () => {
    expect(checkPlanFresh(saved(), [role('upd'), role('gone', { content: 'edited' }), role('brand-new')])).toEqual({ fresh: true });
  });

  test('a planned Role edited on the tenant makes it stale', () => {
    expect(checkPlanFresh(saved(), [role('upd', { description: 'edited' }), role('gone'), role('other')])).toEqual({
      fresh: false,
      reasons: ['Role "upd" (id id-upd) changed on the tenant since the plan was made'],
    });
  });

  test('a planned delete whose Role is already gone makes it stale', () => {
    expect(checkPlanFresh(savedWithDelete(), [role('upd'), role('other')])).toEqual({
      fresh: false,
      reasons: ['Role "gone" (id id-gone) no longer exists on the tenant'],
    });
  });

  test('a planned create whose name is now taken makes it stale', () => {
    expect(checkPlanFresh(saved(), [...remote, role('add', { id: 'someone-else' })])).toEqual({
      fresh: false,
      reasons: ['the Roles named "add" changed on the tenant since the plan was made'],
    });
  });

  test('a plan made for another base URL is stale', () => {
    const result = checkPlanFresh(saved(), remote, { name: 'local', baseUrl: 'https://elsewhere.invalid' });
    expect(result).toEqual({ fresh: false, reasons: ['the plan was made for http://127.0.0.1:7070, not https://elsewhere.invalid'] });
  });

  test('a create whose name is freed by a planned rename stays fresh, and goes stale if that Role changes', () => {
    const tenant = [role('x', { id: 'r1' })];
    const p = plan([file('y', { id: 'r1' }), file('x')], tenant);
    expect(checkPlanFresh(p, tenant)).toEqual({ fresh: true });
    const after = checkPlanFresh(p, [role('x', { id: 'r1', content: 'edited' })]);
    expect(after.fresh).toBe(false);
  });
});
