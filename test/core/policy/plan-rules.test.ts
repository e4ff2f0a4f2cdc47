import { describe, expect, test } from 'vitest';
import { parseConfig } from '../../../src/core/config/config.js';
import { planDigest, renderPlanJson } from '../../../src/core/plan/index.js';
import { compileSchema } from '../../../src/core/text/schema.js';
import { changedLinesPct, parseAllow, recordedAllows, shortFingerprint, withPlanPolicy, type Allow, type PlanRule } from '../../../src/core/config/policy/index.js';
import { loadSchema } from '../../../src/files/package-root.js';
import { file, plan, planSchema, role } from '../roles/builders.js';

function rules(yaml: string): PlanRule[] {
  const parsed = parseConfig(yaml, 'c.yaml', loadSchema('config'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value.policy.plan;
}

const allow = (text: string): Allow => {
  const a = parseAllow(text);
  if (typeof a === 'string') throw new Error(a);
  return a;
};

const prod = { name: 'prod-eu', baseUrl: 'https://x.example' };

describe('plan policy', () => {
  test('a hard delete rule on matching tenants is a guard; other tenants are not concerned', () => {
    const r = rules('policy:\n  plan:\n    - { tenants: ["prod*"], action: delete, level: hard }\n');
    const p = plan([], [role('old')], { prune: true, allowEmptyPrune: true, tenant: prod });
    withPlanPolicy(p, r, []);
    expect(p.policy).toEqual([expect.objectContaining({ rule: 'delete', level: 'hard', tenant: 'prod-eu', role: 'old', fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) })]);
    expect(p.guards).toEqual([{ kind: 'policy', name: 'old', message: expect.stringContaining('hard: no override') }]);
    const staging = plan([], [role('old')], { prune: true, allowEmptyPrune: true, tenant: { name: 'staging', baseUrl: 'https://y.example' } });
    withPlanPolicy(staging, r, []);
    expect(staging.policy).toEqual([]);
    expect(staging.guards).toEqual([]);
  });

  test('an --allow never overrides a hard finding, and says so', () => {
    const p = plan([], [role('old')], { prune: true, allowEmptyPrune: true, tenant: prod });
    const notes = withPlanPolicy(p, rules('policy:\n  plan: [{ action: delete, level: hard }]\n'), [allow('delete:old')]);
    expect(p.guards).toHaveLength(1);
    expect(notes).toEqual(['--allow delete:old: delete:old is hard: no --allow overrides it']);
  });

  test('an error finding passes with --allow RULE:ROLE, bound to the content; it lapses when the Role changes', () => {
    const r = rules('policy:\n  plan: [{ name: big-update, max_changed_lines_pct: 50 }]\n');
    const before = role('agent', { content: 'a\nb\nc\nd' });
    const p1 = plan([file('agent', { content: 'w\nx\ny\nd' })], [before]);
    withPlanPolicy(p1, r, [allow('big-update:agent')]);
    expect(p1.guards).toEqual([]);
    expect(p1.policy![0]).toMatchObject({ rule: 'big-update', level: 'error', allowed: true });
    const fp = shortFingerprint(p1.policy![0]!.fingerprint);

    // The same fingerprint again: still allowed. Another content: the allow lapses, the guard is back.
    const same = plan([file('agent', { content: 'w\nx\ny\nd' })], [before]);
    expect(withPlanPolicy(same, r, [allow(`big-update:agent@${fp}`)])).toEqual([]);
    expect(same.guards).toEqual([]);
    const changed = plan([file('agent', { content: 'w\nx\nz\nd' })], [before]);
    const notes = withPlanPolicy(changed, r, [allow(`big-update:agent@${fp}`)]);
    expect(changed.guards).toEqual([expect.objectContaining({ kind: 'policy', message: expect.stringContaining('override: --allow big-update:agent@') })]);
    expect(notes[0]).toMatch(/^--allow big-update:agent@[0-9a-f]{12} lapsed: big-update:agent is now fingerprint [0-9a-f]{64}: the content changed/);
  });

  test('a saved plan records its allowed findings (in the digest), which count when applied', () => {
    const r = rules('policy:\n  plan: [{ max_changes: 1 }]\n');
    const p = plan([file('a'), file('b')], []);
    withPlanPolicy(p, r, [allow('max_changes')]);
    const saved = JSON.parse(renderPlanJson(p));
    expect(compileSchema(planSchema)(saved)).toBe(true);
    expect(saved.policy[0]).toMatchObject({ rule: 'max_changes', allowed: true });
    expect(saved.digest).toBe(planDigest(saved));
    // apply PLANFILE: today's rules over the saved changes, the recorded allows counting.
    const again = { ...saved, guards: [] as unknown[] };
    withPlanPolicy(again, r, [], recordedAllows(saved));
    expect(again.guards).toEqual([]);
    const tampered = { ...saved, policy: saved.policy.map((f: object) => ({ ...f, allowed: true, level: 'hard' })) };
    expect(planDigest(tampered)).not.toBe(saved.digest);
  });

  test('warn findings are shown, never refuse; a rule that finds nothing leaves policy empty', () => {
    const p = plan([file('a')], [], { tenant: prod });
    withPlanPolicy(p, rules('policy:\n  plan: [{ action: create, level: warn }, { max_changes: 5 }]\n'), []);
    expect(p.policy!.map((f) => f.level)).toEqual(['warn']);
    expect(p.guards).toEqual([]);
  });

  test('--allow that names nothing is said; a malformed one is refused', () => {
    const p = plan([file('a')], []);
    expect(withPlanPolicy(p, rules('policy:\n  plan: [{ action: delete }]\n'), [allow('create:a')])).toEqual(['--allow create:a matches no finding of this plan']);
    expect(parseAllow(':x')).toMatch(/write RULE, RULE:ROLE/);
    expect(parseAllow('delete:my:role@abcdef12')).toEqual({ text: 'delete:my:role@abcdef12', rule: 'delete', role: 'my:role', fingerprint: 'abcdef12' });
  });

  test('a plan rule must be exactly one kind', () => {
    const parsed = parseConfig('policy:\n  plan:\n    - { action: delete, max_changes: 3 }\n', 'c.yaml', loadSchema('config'));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues[0]).toMatchObject({ line: 3, message: expect.stringContaining('exactly one of action, max_changes, max_changed_lines_pct (got delete, max_changes)') });
  });

  test('changed lines: the larger of added and removed against the lines before', () => {
    expect(changedLinesPct('a\nb', undefined)).toBeUndefined();
    expect(changedLinesPct('a\nb\nc\nd', '--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+x\n b\n c\n d\n')).toBe(25);
  });
});
