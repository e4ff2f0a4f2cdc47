import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Role } from '../../../src/core/model.js';
import { globMatcher, matchRoles } from '../../../src/core/plan/index.js';
import type { RoleFile } from '../../../src/core/roles/index.js';
import { file, role } from '../roles/builders.js';

/**
 * PRODUCT.md "Matching" written as plainly as possible: Roles by name as lists, claims as a Set of
 * ids checked for every Role. `matchRoles` keeps a name one Role holds without a list and skips the
 * orphan pass when every Role is claimed; it must answer exactly this, whatever the tenant lists
 * (shared names, and ids shared by several Roles, which a tenant should never list).
 */
function reference(files: readonly RoleFile[], remote: readonly Role[], ignored: (name: string) => string | undefined) {
  const byName = new Map<string, Role[]>();
  for (const r of remote) if (ignored(r.name) === undefined) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const byId = new Map(remote.map((r) => [r.id, r]));
  const claimed = new Set<string>();
  const pairs: [string, string][] = [];
  const creates: string[] = [];
  const problems: string[] = [];
  const managed = files.filter((f) => ignored(f.name) === undefined);
  for (const f of managed.filter((m) => m.id !== undefined)) {
    const r = byId.get(f.id!);
    if (!r || ignored(r.name) !== undefined) problems.push(f.file);
    else if (!claimed.has(r.id)) {
      claimed.add(r.id);
      pairs.push([f.file, r.id]);
    }
  }
  for (const f of managed.filter((m) => m.id === undefined)) {
    const free = (byName.get(f.name) ?? []).filter((r) => !claimed.has(r.id));
    if (free.length === 1) pairs.push([f.file, free[0]!.id]);
    else if (free.length === 0) creates.push(f.file);
    else problems.push(f.file);
    for (const r of free) claimed.add(r.id);
  }
  const orphans = [...byName.values()].flat().filter((r) => !claimed.has(r.id));
  const holders = (name: string) => (byName.get(name) ?? []).map((r) => r.id);
  return { pairs, creates, problems, orphans: orphans.map((r) => `${r.name}/${r.id}`), holders };
}

describe('matchRoles', () => {
  const name = fc.constantFrom('a', 'b', 'c', 'skip-1', 'skip-2');
  const id = fc.constantFrom('1', '2', '3', '4', '5');

  test('matches exactly as the plain rules do: shared names, shared ids, pinned ids, ignored names', () => {
    const remote = fc.array(fc.record({ name, id }), { maxLength: 8 }).map((rs) => rs.map((r) => role(r.name, { id: r.id })));
    const files = fc
      .array(fc.record({ name, id: fc.option(id, { nil: undefined }) }), { maxLength: 6 })
      .map((fs) => fs.map((f, i) => file(f.name, { file: `roles/${i}.md`, ...(f.id === undefined ? {} : { id: f.id }) })));
    const ignore = fc.constantFrom([], ['skip-*'], ['a']);
    fc.assert(
      fc.property(files, remote, ignore, (fs, rs, globs) => {
        const ignored = globMatcher(globs);
        const got = matchRoles(fs, rs, ignored, 'local');
        const want = reference(fs, rs, ignored);
        expect(got.pairs.map((p) => [p.file.file, p.role.id])).toEqual(want.pairs);
        expect(got.creates.map((f) => f.file)).toEqual(want.creates);
        expect(got.issues.map((i) => i.file)).toEqual(want.problems);
        expect(got.orphans.map((r) => `${r.name}/${r.id}`)).toEqual(want.orphans);
        for (const n of ['a', 'b', 'c', 'skip-1', 'zz']) expect(got.holdersOf(n).map((r) => r.id)).toEqual(want.holders(n));
      }),
      { numRuns: 3000 },
    );
  });

  test('a Role is left over when another Role with its id was claimed elsewhere only if ids differ', () => {
    // Two Roles share id 7 (a broken tenant): a file claiming one by name claims the id, so neither is an orphan.
    const got = matchRoles([file('a')], [role('a', { id: '7' }), role('b', { id: '7' })], globMatcher([]), 'local');
    expect(got.orphans).toEqual([]);
    const apart = matchRoles([file('a')], [role('a', { id: '7' }), role('b', { id: '8' })], globMatcher([]), 'local');
    expect(apart.orphans.map((r) => r.id)).toEqual(['8']);
  });
});
