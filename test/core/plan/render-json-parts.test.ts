import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planJsonBytes, renderPlanJson, type Plan } from '../../../src/core/plan/index.js';
import { makeRedactor } from '../../../src/core/text/redact.js';
import { jsonText } from '../../../src/core/text/safe-text.js';
import { encodedInPieces } from '../../../src/core/text/text-parts.js';
import { file, plan, role } from '../roles/builders.js';

// `plan --json` writes the plan piece by piece as UTF-8 (planJsonBytes) so that 100,000 Roles never
// sit in memory as one string; the pieces must make exactly the text renderPlanJson gives.

/** The pieces joined and decoded (strictly: bytes that are not UTF-8 throw). */
const decoded = (pieces: Iterable<Uint8Array>): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.concat([...pieces]));
const joined = (p: Plan, partChars?: number): string => decoded(planJsonBytes(p, { partChars }));

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

describe('plan JSON in pieces', () => {
  test('the pieces make exactly the text renderPlanJson gives, whatever the roles hold', () => {
    fc.assert(
      fc.property(plans, (p) => {
        expect(joined(p)).toBe(renderPlanJson(p));
      }),
      { numRuns: 300 },
    );
  });

  test('a plan of hundreds of changes (serialised several at a time, as many as make about so many characters) makes the same text', () => {
    fc.assert(
      // From one change at a time to all of them at once.
      fc.property(fc.array(fields, { minLength: 130, maxLength: 200 }), fc.integer({ min: 1, max: 200_000 }), (all, partChars) => {
        const files = all.map((f, i) => file(`role-${i}`, f));
        // Updates, creates and deletes, so that groups cross from one kind of change to the next.
        const remote = all.map((f, i) => role(i % 3 === 0 ? `gone-${i}` : `role-${i}`, { content: `${f.content}-`, description: f.description }));
        const p = plan(files, remote, { prune: true });
        expect(p.changes.length).toBeGreaterThan(128);
        expect(joined(p, partChars)).toBe(renderPlanJson(p));
      }),
      { numRuns: 20 },
    );
  });

  test('a plan whose objects hold their keys in any order, read after one in order, gives the same text', () => {
    // Every object's keys rotated by `turn` (and reversed when `back`), nested ones too.
    const shuffled = (value: unknown, turn: number, back: boolean): unknown => {
      if (Array.isArray(value)) return value.map((v) => shuffled(v, turn, back));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value).map(([k, v]): [string, unknown] => [k, shuffled(v, turn, back)]);
      const cut = entries.length === 0 ? 0 : turn % entries.length;
      const moved = [...entries.slice(cut), ...entries.slice(0, cut)];
      return Object.fromEntries(back ? moved.reverse() : moved);
    };
    fc.assert(
      fc.property(plans, fc.integer({ min: 0, max: 20 }), fc.boolean(), (p, turn, back) => {
        const inOrder = renderPlanJson(p);
        const other = shuffled(p, turn, back) as Plan;
        expect(renderPlanJson(other)).toBe(inOrder);
        expect(joined(other)).toBe(inOrder);
        expect(joined(p)).toBe(inOrder);
      }),
      { numRuns: 300 },
    );
  });

  test('with a redactor, the text of the plan with every secret masked, in whichever changes hold one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fields, fc.nat(3)), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom('s3cret-token', 'a"b\\c/d', 'x\ny\u2028z', 'é€\ud83d\ude00'),
        (all, partChars, secret) => {
          // The secret in some files' content or description, in a remote Role's, or nowhere.
          const files = all.map(([f, where], i) => file(`role-${i}`, where === 1 ? { ...f, content: `${f.content}${secret}` } : where === 2 ? { ...f, description: secret } : f));
          const remote = all.map(([f, where], i) => role(i % 3 === 0 ? `gone-${i}` : `role-${i}`, { content: where === 3 ? `${secret}-` : `${f.content}-`, description: f.description }));
          const p = plan(files, remote, { prune: true });
          const redactor = makeRedactor([secret]);
          const masked = decoded(planJsonBytes(p, { redactor, partChars }));
          expect(masked).toBe(decoded(planJsonBytes(redactor.values(p))));
          expect(masked).not.toContain(jsonText(secret).slice(1, -1));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a plan without changes, and one with, each a whole JSON document with its digest', () => {
    for (const p of [plan([], [], {}), plan([file('a', { content: 'x\u2028y' }), file('b')], [role('b', { content: 'old' })], {})]) {
      expect(joined(p)).toBe(renderPlanJson(p));
      expect((JSON.parse(joined(p)) as Plan).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });
});

describe('encodedInPieces', () => {
  test('the pieces are the parts joined, as UTF-8, each seen before it is yielded, none much over the size', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '€', '\ud83d\ude00', '\n') }), { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (parts, size) => {
        const seen: Uint8Array[] = [];
        const pieces: Uint8Array[] = [];
        for (const piece of encodedInPieces(parts, (b) => seen.push(b), size)) {
          expect(seen.at(-1)).toBe(piece);
          pieces.push(piece);
        }
        expect(seen).toHaveLength(pieces.length);
        expect(Buffer.concat(pieces).toString('utf8')).toBe(parts.join(''));
        // Never much over the size: a long part makes a piece of at most 3 bytes a code unit.
        const longest = Math.max(0, ...parts.map((p) => p.length));
        for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(Math.max(size, 3 * longest));
      }),
      { numRuns: 300 },
    );
  });
});
