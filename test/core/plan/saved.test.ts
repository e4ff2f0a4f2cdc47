import { describe, expect, test } from 'vitest';
import { planDigest, renderPlanJson, savedPlanRefusals, type Plan } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

const remote = [role('upd'), role('admin-root'), role('other')];
const saved = (): Plan => JSON.parse(renderPlanJson(plan([file('upd', { content: 'new' }), file('add'), file('other')], remote, { prune: true }))) as Plan;
const none = { protect: [] };

describe('saved plans: digest', () => {
  test('every JSON plan carries the digest of the rest of it, last', () => {
    const text = renderPlanJson(saved());
    const doc = JSON.parse(text) as Plan;
    expect(doc.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(doc).at(-1)).toBe('digest');
    expect(planDigest(doc)).toBe(doc.digest);
    // Read back and written again: the same file, so the digest is canonical.
    expect(renderPlanJson(doc)).toBe(text);
    expect(savedPlanRefusals(doc, none)).toEqual([]);
  });

  test('content of any characters round-trips with its digest (the digest and the file come from one serialiser)', () => {
    const content = 'esc \u001b[2J bell \u0007 nul \u0000 ls \u2028 emoji \ud83d\ude00 lone \ud800 "quoted" \\ back';
    const text = renderPlanJson(plan([file('odd', { content, description: content })], [], {}));
    const doc = JSON.parse(text) as Plan;
    expect(doc.changes[0]!.after!.content).toBe(content);
    expect(planDigest(doc)).toBe(doc.digest);
    expect(renderPlanJson(doc)).toBe(text);
    expect(savedPlanRefusals(doc, none)).toEqual([]);
  });

  test('keys in another order are the same plan', () => {
    const doc = saved();
    const shuffled = Object.fromEntries(Object.entries(doc).reverse()) as unknown as Plan;
    expect(savedPlanRefusals(shuffled, none)).toEqual([]);
  });

  test.each([
    ['a changed content', (p: Plan) => (p.changes.find((c) => c.action === 'create')!.after!.content = 'edited')],
    ['an added delete', (p: Plan) => p.changes.push({ ...p.changes.find((c) => c.action === 'delete')!, name: 'other', id: 'id-other' })],
    ['a removed change', (p: Plan) => p.changes.pop()],
    ['another tenant', (p: Plan) => (p.tenant.base_url = 'https://elsewhere.example')],
    ['a loosened option', (p: Plan) => (p.options.protect = ['*'])],
  ])('%s is an altered plan', (_what, edit) => {
    const doc = saved();
    edit(doc);
    expect(savedPlanRefusals(doc, none)).toEqual(['it was altered since `roleflow plan --out` wrote it: its digest does not match its contents']);
  });

  test('a plan without a digest is refused', () => {
    const { digest: _d, ...rest } = saved();
    expect(savedPlanRefusals(rest as Plan, none)).toEqual([expect.stringMatching(/^it has no digest/)]);
  });
});

describe("saved plans: today's guards", () => {
  test('protect, max_deletes and an empty prune, as the config says today', () => {
    const doc = saved();
    expect(savedPlanRefusals(doc, { protect: ['admin-*'], maxDeletes: 0 })).toEqual([
      'today\'s config refuses it: Role "admin-root" is protected (protect: "admin-*"): refusing to delete it',
      "today's config refuses it: 1 delete planned, more than max_deletes (0): refusing the plan",
    ]);
    expect(savedPlanRefusals(doc, { protect: ['up*'] })).toEqual([
      'today\'s config refuses it: Role "upd" is protected (protect: "up*"): refusing to update it',
    ]);
    expect(savedPlanRefusals(doc, { protect: [], maxDeletes: 1 })).toEqual([]);
  });

  test('an empty prune needs consent, recorded in the plan or given by today\'s config', () => {
    const empty = JSON.parse(renderPlanJson(plan([], remote, { prune: true, allowEmptyPrune: true }))) as Plan;
    expect(empty.options.allow_empty_prune).toBe(true);
    expect(savedPlanRefusals(empty, none)).toEqual([]);
    const { allow_empty_prune: _a, ...options } = empty.options;
    const withoutConsent = { ...empty, options };
    const refused = { ...withoutConsent, digest: planDigest(withoutConsent) };
    expect(savedPlanRefusals(refused, none)).toEqual([expect.stringMatching(/^today's config refuses it: there are no role files, yet prune would delete every Role on the tenant \(3\)/)]);
    expect(savedPlanRefusals(refused, { protect: [], allowEmptyPrune: true })).toEqual([]);
  });
});
