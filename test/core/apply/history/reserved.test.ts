import { describe, expect, it } from 'vitest';
import { checkRoleSet } from '../../../../src/core/roles/index.js';
import { file, planOf, role } from './builders.js';

describe("the journal's reserved Role", () => {
  it('is never planned: not pruned, not unmanaged, not taken by a target', () => {
    const remote = [role('1', 'roleflow.history', '{"id":"x"}\n'), role('2', 'a', 'A')];
    expect(planOf([file('a', 'A')], remote, { prune: true }).changes).toEqual([]);
    expect(planOf([file('a', 'A')], remote, { prune: false }).unmanaged).toEqual([]);
    expect(planOf([], remote, { targets: ['roleflow.*'] }).changes).toEqual([]);
  });

  it('cannot be claimed by a role file: a located error', () => {
    const claimed = { ...file('roleflow.history', 'mine'), at: { name: { line: 2, col: 7 } } };
    expect(checkRoleSet([claimed, file('b', 'B')])).toEqual([
      { file: 'roles/roleflow.history.md', line: 2, col: 7, message: expect.stringMatching(/^name "roleflow.history" is reserved: roleflow keeps its apply journal/) },
    ]);
  });
});
