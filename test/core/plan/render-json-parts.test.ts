import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planJsonParts, renderPlanJson, type Plan } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

// `plan --json` writes the plan part by part (planJsonParts) so that 100,000 Roles never sit in
// memory as one string; the parts must make exactly the text renderPlanJson writes to a file.

// Text a role may hold: control characters, line separators, surrogate pairs and lone halves,
// quotes, and the very line the parts are cut at.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\t', '"', '\\', '\u0000', '\u001b', '\u007f', '\u0085', '\u2028', '\u200b', '\ud83d', '\ude00', '\ud83d\ude00', 'é') }),
  fc.constantFrom('\n  "changes": []', '\n  "changes": [\n    ', '\n}', ''),
);
const fields = fc.record({ description: text, content: text });
const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { maxLength: 6 });

/** A plan of creates, updates (with diffs), renames, deletes and unmanaged Roles from arbitrary text. */
const plans = fc
  .record({
    names,
    remoteFields: fc.array(fields, { minLength: 6, maxLength: 6 }),
    localFields: fc.array(fields, { minLength: 6, maxLength: 6 }),
    prune: fc.boolean(),
    reorder: fc.boolean(),
  })
  .map(({ names: all, remoteFields, localFields, prune, reorder }) => {
    const files = all.filter((_, i) => i % 3 !== 2).map((n, i) => file(n, localFields[i % 6]!));
    const remote = all.filter((_, i) => i % 3 !== 1).map((n, i) => role(n, remoteFields[i % 6]!));
    const p = plan(files, remote, { prune });
    // A plan read back from a file may hold its keys in any order.
    return reorder ? (JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(p).reverse()))) as Plan) : p;
  });

describe('plan JSON in parts', () => {
  test('the parts make exactly the text renderPlanJson gives, whatever the roles hold', () => {
    fc.assert(
      fc.property(plans, (p) => {
        expect([...planJsonParts(p)].join('')).toBe(renderPlanJson(p));
      }),
      { numRuns: 300 },
    );
  });

  test('a plan without changes, and one with, each a whole JSON document with its digest', () => {
    for (const p of [plan([], [], {}), plan([file('a', { content: 'x\u2028y' }), file('b')], [role('b', { content: 'old' })], {})]) {
      const parts = [...planJsonParts(p)];
      expect(parts.join('')).toBe(renderPlanJson(p));
      expect((JSON.parse(parts.join('')) as Plan).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    // One part per change between the text before the changes and the closing ones.
    expect([...planJsonParts(plan([file('a'), file('b'), file('c')], [], {}))]).toHaveLength(6);
  });
});
