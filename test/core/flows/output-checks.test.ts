import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareSnapshot,
  evaluateTest,
  LeakIndex,
  normalise,
  parseSnapshotFile,
  renderSnapshotFile,
  snapshotKey,
  withoutIgnored,
  type AssertionContext,
  type RoleText,
} from '../../../src/core/flows/index.js';
import { flowTest, https, ws } from './builders.js';

const ROLE: RoleText = {
  name: 'support-agent',
  file: 'roles/support-agent.md',
  firstLine: 5,
  content: '# Support agent\n\nYou are a tier-1 support agent for an online store.\nYou answer customers politely,   briefly and accurately.\n',
};
const OTHER: RoleText = { name: 'translator', file: 'roles/translator.md', firstLine: 4, content: 'Translate the text you are given into the language asked for, keeping its tone.' };

const leaksOf = (roles: RoleText[]): AssertionContext['leaks'] => (role, minChars) => {
  const texts = role === '*' ? roles : roles.filter((r) => r.name === role);
  return texts.length === 0 ? undefined : new LeakIndex(texts, minChars);
};

describe('schema', () => {
  const test = flowTest(`  - name: t
    expect:
      outputs:
        - path: "results[0]"
          schema:
            type: object
            required: [label]
            properties:
              label: { $ref: "#/definitions/label" }
            definitions:
              label: { enum: [support, billing] }
`);

  it('passes a conforming value, resolving $refs within the schema', () => {
    const [r] = evaluateTest(test, ws({ outputs: { results: [{ label: 'billing' }] } }));
    expect(r).toMatchObject({ status: 'pass', label: 'results[0] schema', line: 6, col: 11 });
  });

  it('fails naming the failing value by its path and what the schema wants', () => {
    const [r] = evaluateTest(test, ws({ outputs: { results: [{ label: 'sales' }] } }));
    expect(r).toMatchObject({ status: 'fail', message: 'results[0].label: must be one of support, billing', line: 6 });
    const [missing] = evaluateTest(test, ws({ outputs: { results: [{}] } }));
    expect(missing!.message).toBe('results[0]: missing required key "label"');
  });

  it('is skipped, with the reason, over HTTPS, which has no outputs', () => {
    const [r] = evaluateTest(test, https());
    expect(r).toMatchObject({ status: 'skip', message: 'results[0] schema: skipped: the HTTPS execution logs carry no outputs' });
  });
});

describe('snapshot', () => {
  const test = flowTest(`  - name: labels
    expect:
      outputs:
        - { path: "results[0]", snapshot: true, ignore: [execution_id, "**.at"] }
`);
  const key = snapshotKey('labels', 'ws', 'results[0]');
  const out = (label: string) => ({ results: [{ label, execution_id: 'e-1', items: [{ at: 't1', n: 1 }] }] });

  it('matches the stored value, ignored members left out', () => {
    const context: AssertionContext = { snapshots: new Map([[key, { value: { label: 'a', items: [{ n: 1 }] }, source: 'file' }]]) };
    const [r] = evaluateTest(test, ws({ outputs: out('a') }), context);
    expect(r).toMatchObject({ status: 'pass', message: 'results[0]: matches its snapshot' });
  });

  it('fails on a difference with a unified diff of the YAML', () => {
    const context: AssertionContext = { snapshots: new Map([[key, { value: { label: 'a', items: [{ n: 1 }] }, source: 'file' }]]) };
    const [r] = evaluateTest(test, ws({ outputs: out('b') }), context);
    expect(r!.status).toBe('fail');
    expect(r!.message).toBe('results[0]: differs from its snapshot (`roleflow test -u` accepts the new value)');
    expect(r!.diff).toBe('--- snapshot\n+++ received\n@@ -1,3 +1,3 @@\n-label: a\n+label: b\n items:\n   - n: 1\n');
  });

  it('passes a missing snapshot (to be written), but fails it under CI', () => {
    const fresh: AssertionContext = { snapshots: new Map([[key, { value: { label: 'a', items: [{ n: 1 }] }, source: 'new' }]]) };
    expect(evaluateTest(test, ws({ outputs: out('a') }), fresh)[0]).toMatchObject({ status: 'pass', message: 'results[0]: snapshot written' });
    const [ci] = evaluateTest(test, ws({ outputs: out('a') }), { ...fresh, ci: true });
    expect(ci).toMatchObject({ status: 'fail', message: 'results[0]: no snapshot is stored and CI is set: run `roleflow test -u` and commit __snapshots__/' });
  });

  it('compares a later repeat with the first when nothing was stored', () => {
    const fresh: AssertionContext = { snapshots: new Map([[key, { value: { label: 'a', items: [{ n: 1 }] }, source: 'new' }]]) };
    const [r] = evaluateTest(test, ws({ outputs: out('c') }), fresh);
    expect(r).toMatchObject({ status: 'fail', message: 'results[0]: differs from the first repeat (written as its snapshot)' });
  });

  it('is skipped over HTTPS', () => {
    expect(evaluateTest(test, https())[0]!.status).toBe('skip');
  });

  it('writes files that read back as they were, keys sorted', () => {
    const entries = new Map<string, unknown>([
      ['b [ws] results', [1, 'two', { three: null }]],
      ['a [https] x', { text: 'line 1\nline 2', n: 1.5 }],
    ]);
    const text = renderSnapshotFile(entries, 'flows/x.yaml');
    expect(text.indexOf('a [https] x')).toBeLessThan(text.indexOf('b [ws] results'));
    const back = parseSnapshotFile(text, 'x.snap.yaml');
    expect(back.ok && Object.fromEntries(back.value)).toEqual(Object.fromEntries(entries));
  });

  it('ignores by path: a key, * for any one key, ** for any depth', () => {
    const v = { id: 1, a: { id: 2, b: { id: 3 } }, list: [{ id: 4, k: 1 }] };
    expect(withoutIgnored(v, ['id'])).toEqual({ a: { id: 2, b: { id: 3 } }, list: [{ id: 4, k: 1 }] });
    expect(withoutIgnored(v, ['*.id'])).toEqual({ id: 1, a: { b: { id: 3 } }, list: [{ id: 4, k: 1 }] });
    expect(withoutIgnored(v, ['list.*.id'])).toEqual({ id: 1, a: { id: 2, b: { id: 3 } }, list: [{ k: 1 }] });
    expect(withoutIgnored(v, ['**.id'])).toEqual({ a: { b: {} }, list: [{ k: 1 }] });
    expect(compareSnapshot({ a: 1 }, { a: 1 })).toEqual({ pass: true });
  });
});

describe('not_leaks', () => {
  const test = flowTest(`  - name: t
    expect:
      outputs:
        - { path: results, not_leaks: support-agent }
        - { path: results, not_leaks: "*", min_chars: 20 }
`);

  it('fails on a verbatim run of the Role, whitespace normalised, naming the file and line', () => {
    const outputs = { results: [{ reply: 'Sure! You answer customers politely, briefly and\n  accurately. Anything else?' }] };
    const [named, all] = evaluateTest(test, ws({ outputs }), { leaks: leaksOf([ROLE, OTHER]) });
    expect(named).toMatchObject({
      status: 'fail',
      line: 6,
      message: 'results: leaks 56 characters of Role support-agent (roles/support-agent.md:8): "You answer customers politely, briefly and accurately."',
    });
    expect(all!.status).toBe('fail');
  });

  it('passes outputs that only share short phrases with the Roles', () => {
    const outputs = { results: ['You are a tier-1 agent.', { note: 'Translate the text you are given' }] };
    const results = evaluateTest(test, ws({ outputs }), { leaks: leaksOf([ROLE, OTHER]) });
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail']);
    expect(results[1]!.message).toContain('translator (roles/translator.md:4)');
  });

  it('is skipped over HTTPS, and when no role files were read', () => {
    expect(evaluateTest(test, https(), { leaks: leaksOf([ROLE]) })[0]!.status).toBe('skip');
    expect(evaluateTest(test, ws({ outputs: { results: [] } }))[0]!.message).toContain('skipped: no role files were read');
  });

  // The index finds a leak exactly when some minChars-long piece of the normalised text is in a
  // normalised Role: the naive search, over texts from a tiny alphabet so that matches are common.
  it('agrees with a naive search (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'c'), maxLength: 60 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), text, fc.integer({ min: 1, max: 8 }), (roles, output, n) => {
        const texts = roles.map((content, i) => ({ name: `r${i}`, file: `r${i}.md`, firstLine: 1, content }));
        const found = new LeakIndex(texts, n).find(output);
        const norm = normalise(output).text;
        const naive = texts.some((r) => {
          const role = normalise(r.content).text;
          for (let i = 0; i + n <= norm.length; i++) if (role.includes(norm.slice(i, i + n))) return true;
          return false;
        });
        expect(found !== undefined).toBe(naive);
        if (found) {
          expect(found.text.length).toBeGreaterThanOrEqual(n);
          expect(norm).toContain(found.text);
          expect(normalise(texts.find((r) => r.name === found.role)!.content).text).toContain(found.text);
        }
      }),
      { numRuns: 500 },
    );
  });
});
