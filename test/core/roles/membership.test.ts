import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../../src/core/errors.js';
import { filesForTenant, membershipNotes, parseRoleFile, serializeRoleFile, unmatchedTenantWarnings } from '../../../src/core/roles/index.js';
import { file, role, roleSchema } from './builders.js';

function problems(text: string): string[] {
  const r = parseRoleFile(text, 'roles/a.md', roleSchema);
  return r.ok ? [] : r.issues.map(formatIssue);
}

describe('front-matter tenants:', () => {
  test('is read with where it stands', () => {
    const r = parseRoleFile('---\nname: a\ndescription: d\ntenants: [staging, "eu-*"]\n---\nc\n', 'roles/a.md', roleSchema);
    expect(r.ok && r.value.tenants).toEqual(['staging', 'eu-*']);
    expect(r.ok && r.value.at.tenants).toEqual({ line: 4, col: 1 });
    expect(r.ok && r.value.at.tenantNames).toEqual([{ line: 4, col: 11 }, { line: 4, col: 20 }]);
  });

  test('a non-list, or a pattern that is not a string, is a located error', () => {
    expect(problems('---\nname: a\ndescription: d\ntenants: staging\n---\n')).toEqual(['roles/a.md:4:10: tenants: must be array, got string']);
    expect(problems('---\nname: a\ndescription: d\ntenants: [staging, 3]\n---\n')).toEqual(['roles/a.md:4:20: tenants[1]: must be string, got number']);
  });

  test('names and globs choose the tenants; no tenants: means every tenant', () => {
    const files = [file('all'), file('stage', { tenants: ['staging'] }), file('eu', { tenants: ['eu-*'] })];
    const names = (tenant: string) => filesForTenant(files, tenant).kept.map((f) => f.name);
    expect(names('staging')).toEqual(['all', 'stage']);
    expect(names('eu-west')).toEqual(['all', 'eu']);
    expect(names('production')).toEqual(['all']);
  });

  test('a plan note says why a Role on the tenant is deleted or left unmanaged', () => {
    const stage = file('exp', { tenants: ['staging'], at: { name: { line: 2, col: 1 }, tenants: { line: 4, col: 1 } } });
    const deleted = { deleted: new Set(['id-exp']), unmanaged: new Set<string>() };
    const unmanaged = { deleted: new Set<string>(), unmanaged: new Set(['id-exp']) };
    const untouched = { deleted: new Set<string>(), unmanaged: new Set<string>() };
    expect(membershipNotes([stage], [role('exp')], 'production', deleted)).toEqual([
      '"exp" (id id-exp) is deleted from tenant "production": roles/exp.md is not for tenant "production" (tenants: [staging] in roles/exp.md:4)',
    ]);
    expect(membershipNotes([stage], [role('exp')], 'production', unmanaged)[0]).toMatch(/^"exp" \(id id-exp\) is left unmanaged on tenant "production"/);
    // Ignored, or outside a partial plan: the plan does nothing with it, so no note.
    expect(membershipNotes([stage], [role('exp')], 'production', untouched)).toEqual([]);
    expect(membershipNotes([stage], [role('other')], 'production', deleted)).toEqual([]);
  });

  test('pull keeps tenants: when it writes a file', () => {
    const text = serializeRoleFile({ name: 'a', description: 'd', content: 'c', tenants: ['staging', 'yes'] });
    expect(text).toContain('tenants: [ staging, "yes" ]');
    const r = parseRoleFile(text, 'roles/a.md', roleSchema);
    expect(r.ok && r.value.tenants).toEqual(['staging', 'yes']);
  });

  test('validate warns about a name that is no configured tenant (not about globs)', () => {
    const f = file('a', { tenants: ['staging', 'stagin', 'eu-*', 'us-?'], at: { name: { line: 2, col: 1 }, tenants: { line: 4, col: 1 } } });
    expect(unmatchedTenantWarnings([f], ['local', 'staging', 'eu-west']).map(formatIssue)).toEqual([
      'roles/a.md:4:1: warning: tenants: "stagin" is not a tenant of the config ("local", "staging", "eu-west")',
    ]);
  });

  test('the warning stands at the name itself, in a flow list or a block list', () => {
    const parsed = (text: string) => {
      const r = parseRoleFile(text, 'roles/a.md', roleSchema);
      if (!r.ok) throw new Error('unparsed');
      return r.value;
    };
    const flow = parsed('---\nname: a\ndescription: d\ntenants: [staging, prodution]\n---\nc\n');
    const block = parsed('---\nname: b\ndescription: d\ntenants:\n  - staging\n  - prodution\n---\nc\n');
    expect(unmatchedTenantWarnings([flow, block], ['local', 'staging', 'production']).map(formatIssue)).toEqual([
      'roles/a.md:4:20: warning: tenants: "prodution" is not a tenant of the config ("local", "staging", "production")',
      'roles/a.md:6:5: warning: tenants: "prodution" is not a tenant of the config ("local", "staging", "production")',
    ]);
  });

  test('tenants: [] is warned about: the Role is on no tenant, and deleted everywhere with prune', () => {
    const f = file('a', { tenants: [], at: { name: { line: 2, col: 1 }, tenants: { line: 4, col: 1 } } });
    expect(unmatchedTenantWarnings([f], ['local']).map(formatIssue)).toEqual([
      'roles/a.md:4:1: warning: tenants: [] manages the Role on no tenant; with prune it is deleted everywhere (leave tenants: out for every tenant)',
    ]);
  });
});
