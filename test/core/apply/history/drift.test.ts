import { describe, expect, it } from 'vitest';
import { ABSENT, classify, driftExitCode, driftIssue, lastApplied, renderDriftText, tenantDrift } from '../../../../src/core/apply/history/drift/index.js';
import { finishedRecord, roleSha, startedRecord, type JournalRecord } from '../../../../src/core/apply/history/index.js';
import { draft, file, outcomes, planOf, role } from './builders.js';

const sha = (name: string, content: string) => roleSha({ name, description: 'd', content });

/** The journal after one apply of `a: A` and `b: B` to an empty tenant. */
function journal(): JournalRecord[] {
  const plan = planOf([file('a', 'A'), file('b', 'B')], []);
  return [finishedRecord(draft(plan, []), outcomes(plan), false, 't')];
}

describe('classifying a Role', () => {
  const applied = new Map([['a', new Set([sha('a', 'A')])]]);
  const cases: [string, string, string, string][] = [
    ['files and tenant as applied', sha('a', 'A'), sha('a', 'A'), 'in_sync'],
    ['a merge not applied yet', sha('a', 'A2'), sha('a', 'A'), 'pending'],
    ['a hand edit on the tenant', sha('a', 'A'), sha('a', 'hand'), 'drifted'],
    ['both at once', sha('a', 'A2'), sha('a', 'hand'), 'conflict'],
    ['the tenant lost it', sha('a', 'A'), ABSENT, 'deleted_outside'],
    ['its file was removed, not yet pruned', ABSENT, sha('a', 'A'), 'pending'],
    ['a hand edit the files now say too', sha('a', 'hand'), sha('a', 'hand'), 'in_sync'],
  ];
  for (const [what, files, tenant, status] of cases) {
    it(`${what}: ${status}`, () => expect(classify(files, tenant, applied, 'a')).toBe(status));
  }

  it('a Role roleflow never applied, on the tenant and in no file, was created outside', () => {
    expect(classify(ABSENT, sha('x', 'X'), applied, 'x')).toBe('created_outside');
    expect(classify(sha('x', 'mine'), sha('x', 'X'), applied, 'x')).toBe('conflict');
  });

  it('without a journal, a difference cannot be told apart', () => {
    expect(classify(sha('a', 'A2'), sha('a', 'A'), undefined, 'a')).toBe('unclassified');
  });

  it('after an apply that was killed, either side of each of its changes counts as applied', () => {
    const records = journal();
    const remote = [role('new-0', 'a', 'A'), role('new-1', 'b', 'B')];
    const killed = startedRecord(draft(planOf([file('a', 'A2'), file('b', 'B')], remote), remote, records, {}, 'r2'));
    const left = lastApplied([...records, { ...killed, status: 'interrupted' }])!;
    expect([...left.get('a')!].sort()).toEqual([sha('a', 'A'), sha('a', 'A2')].sort());
    expect(classify(sha('a', 'A2'), sha('a', 'A'), left, 'a')).toBe('pending');
    expect(classify(sha('a', 'A2'), sha('a', 'A2'), left, 'a')).toBe('in_sync');
    expect(classify(sha('a', 'A2'), sha('a', 'hand'), left, 'a')).toBe('drifted');
  });
});

describe("a tenant's drift", () => {
  it('classifies every Role of the files, the tenant and the journal, hides drift.ignore and leaves the journal\'s Role out', () => {
    const remote = [role('1', 'a', 'hand'), role('3', 'made-by-hand', 'x'), role('9', 'roleflow.history', '{}'), role('4', 'noisy', 'n'), role('5', 'skipped', 's')];
    const result = tenantDrift({ tenant: 'prod', files: [file('a', 'A'), file('b', 'B2')], remote, records: journal(), ignore: ['skipped'], hide: ['noisy'] });
    expect(result.roles.map((r) => [r.name, r.status])).toEqual([
      ['a', 'drifted'],
      ['made-by-hand', 'created_outside'],
      ['b', 'deleted_outside'],
    ]);
    expect(result.hidden).toBe(1);
    expect(result.summary).toMatchObject({ drifted: 1, created_outside: 1, deleted_outside: 1, pending: 0 });
    expect(driftExitCode(result.roles.map((r) => r.status))).toBe(5);
  });

  it('exits 2 for pending changes only, 0 when all is in sync', () => {
    expect(driftExitCode(['pending', 'in_sync'])).toBe(2);
    expect(driftExitCode(['unclassified'])).toBe(2);
    expect(driftExitCode(['in_sync'])).toBe(0);
    expect(driftExitCode([])).toBe(0);
  });

  it('names the command that settles each Role, and opens an issue only for drift', () => {
    const result = tenantDrift({ tenant: 'prod', files: [file('a', 'A'), file('b', 'B')], remote: [role('1', 'a', 'hand'), role('2', 'b', 'B')], records: journal(), ignore: [], hide: [] });
    const text = renderDriftText({ format_version: 1, tenants: [result] });
    expect(text).toContain('drifted');
    expect(text).toContain('roleflow apply --tenant prod --target a reverts the tenant to the files');
    expect(text).toContain('roleflow pull --tenant prod --target a --force adopts');
    expect(text).toMatch(/Drift: 1 drifted, 1 in sync\.$/);
    const issue = driftIssue(result);
    expect(issue.open).toBe(true);
    expect(issue.body.startsWith('<!-- roleflow:drift:prod -->\n')).toBe(true);
    const pendingOnly = tenantDrift({ tenant: 'prod', files: [file('a', 'A2'), file('b', 'B')], remote: [role('1', 'a', 'A'), role('2', 'b', 'B')], records: journal(), ignore: [], hide: [] });
    expect(pendingOnly.roles[0]!.status).toBe('pending');
    expect(driftIssue(pendingOnly).open).toBe(false);
  });

  it('names --prune where the files no longer hold the Role: apply --target alone leaves it on the tenant', () => {
    // b's role file was removed (pending); a's was removed while someone edited it by hand (conflict).
    const result = tenantDrift({ tenant: 'prod', files: [], remote: [role('1', 'a', 'hand'), role('2', 'b', 'B')], records: journal(), ignore: [], hide: [] });
    const remedies = Object.fromEntries(result.roles.map((r) => [r.name, [r.status, r.remedy]]));
    expect(remedies['b']).toEqual(['pending', expect.stringContaining('roleflow apply --tenant prod --target b --prune ')]);
    expect(remedies['a']).toEqual(['conflict', expect.stringContaining('roleflow apply --tenant prod --target a --prune ')]);
  });
});
