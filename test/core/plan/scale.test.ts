import { expect, test } from 'vitest';
import type { Role } from '../../../src/core/model.js';
import { type RoleFile } from '../../../src/core/roles/index.js';
import { checkPlanFresh, renderPlanMarkdown, renderPlanText } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

test('computePlan handles 50,000 Roles, and the renderers cope with the result', () => {
  const files: RoleFile[] = [];
  const remote: Role[] = [];
  for (let i = 0; i < 50_000; i++) {
    const name = `role-${i}`;
    const kind = i % 20;
    if (kind !== 19) remote.push(role(name, { id: `r${i}` })); // 1 in 20: only a file → create
    if (kind === 18) continue; // 1 in 20: only remote → delete
    const pinned = i % 2 === 0 ? { id: `r${i}` } : {};
    files.push(file(name, kind < 2 ? { ...pinned, content: `You are ${name}.\nNow edited.` } : pinned));
  }
  const p = plan(files, remote, { prune: true });
  expect(p.summary).toEqual({ create: 2500, update: 5000, delete: 2500, unchanged: 40_000, unmanaged: 0 });
  expect(p.issues).toEqual([]);
  expect(checkPlanFresh(p, remote)).toEqual({ fresh: true });
  expect(renderPlanMarkdown(p).length).toBeLessThanOrEqual(65_536);
  expect(renderPlanText(p, { color: false })).toContain('Plan: 2500 to create, 5000 to update, 2500 to delete.');
});
