import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { rolesDigest } from '../../../src/core/plan/index.js';

const role = (name: string, description = 'd', content = 'c') => ({ name, description, content });

describe('rolesDigest: the Roles as the plan compares them', () => {
  it('is the sha256 of the documented canonical text', () => {
    const text = JSON.stringify(['roleflow.roles', ['a', 'A', 'You are A.'], ['b', '', '']]);
    expect(rolesDigest([role('b', '', ''), role('a', 'A', 'You are A.')])).toBe(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`);
  });

  it('tells any change of a name, description or content, an extra Role and a missing one apart; ids do not count', () => {
    const base = rolesDigest([role('a'), role('b')]);
    expect(rolesDigest([{ ...role('a'), id: 'r-1' }, { ...role('b'), id: 'r-9' }] as never)).toBe(base);
    for (const other of [[role('a'), role('c')], [role('a', 'x'), role('b')], [role('a', 'd', 'x'), role('b')], [role('a')], [role('a'), role('b'), role('b')]]) {
      expect(rolesDigest(other), JSON.stringify(other)).not.toBe(base);
    }
    // Fields do not run into each other: "ab" + "" is not "a" + "b".
    expect(rolesDigest([role('n', 'ab', '')])).not.toBe(rolesDigest([role('n', 'a', 'b')]));
  });

  it('leaves out the Roles roles.ignore matches, as the plan does', () => {
    expect(rolesDigest([role('a'), role('vendor-x', 'anything')], ['vendor-*'])).toBe(rolesDigest([role('a')]));
    expect(rolesDigest([role('a'), role('vendor-x')])).not.toBe(rolesDigest([role('a')]));
  });

  it('does not depend on the order the tenant lists its Roles in', () => {
    const roles = fc.array(fc.record({ name: fc.string(), description: fc.string(), content: fc.string() }), { maxLength: 8 });
    fc.assert(
      fc.property(roles, fc.infiniteStream(fc.nat()), (list, seeds) => {
        const shuffled = list.map((r) => ({ r, k: seeds.next().value as number })).sort((x, y) => x.k - y.k).map((x) => x.r);
        expect(rolesDigest(shuffled)).toBe(rolesDigest(list));
      }),
    );
  });
});
