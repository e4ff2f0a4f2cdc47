import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { formatIssue } from '../../../src/core/errors.js';
import { parseFlowTestFile, reviveFlowTestFile, storedFlowTestFile, type FlowTestFile } from '../../../src/core/flows/index.js';
import { loadSchema } from '../../../src/files/package-root.js';

// The cache of parsed files keeps a flow test file as JSON (storedFlowTestFile) and revives it
// (reviveFlowTestFile): what a run reads from it must be what parsing the file gives.

const schema = loadSchema('flow-test');

function parsed(text: string): FlowTestFile {
  const r = parseFlowTestFile(text, 'flows/t.yaml', schema);
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return r.value;
}

function throughJson(file: FlowTestFile): FlowTestFile | undefined {
  const json = storedFlowTestFile(file);
  return json === undefined ? undefined : reviveFlowTestFile(JSON.parse(json));
}

/**
 * The two models are the same: every plain value deep-equal, every compiled part the same — a
 * regex by its source and flags, a schema check by what it says of values.
 */
function expectSame(revived: FlowTestFile | undefined, fresh: FlowTestFile, probes: unknown[] = [{}, { results: [] }, 1, 'x', null]): void {
  expect(revived).toBeDefined();
  const compiled: [unknown, unknown][] = [];
  const strip = (file: FlowTestFile, into: unknown[]) =>
    JSON.parse(
      JSON.stringify(file, (key, value: unknown) => {
        if (key === 'regex' || key === 'check') {
          into.push(value);
          return '<compiled>';
        }
        return value;
      }),
    ) as unknown;
  const a: unknown[] = [];
  const b: unknown[] = [];
  expect(strip(revived!, a)).toStrictEqual(strip(fresh, b));
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => compiled.push([x, b[i]]));
  for (const [x, y] of compiled) {
    if (x instanceof RegExp || y instanceof RegExp) {
      expect(x).toBeInstanceOf(RegExp);
      expect([(x as RegExp).source, (x as RegExp).flags]).toEqual([(y as RegExp).source, (y as RegExp).flags]);
    } else {
      expect(typeof x).toBe('function');
      for (const probe of probes) expect((x as (v: unknown) => unknown)(probe)).toStrictEqual((y as (v: unknown) => unknown)(probe));
    }
  }
  // Nothing but the compiled parts differs: the same members, in plain JSON terms, with nothing lost.
  expect(isDeepStrictEqual(JSON.parse(storedFlowTestFile(revived!)!), JSON.parse(storedFlowTestFile(fresh)!))).toBe(true);
}

const EVERY_KIND = `flow: summarize
transport: [https, ws]
secrets: [API_KEY]
defaults:
  timeout: 30s
  until: { quiet: 2s }
  repeat: 2
tests:
  - name: "every assertion — ünïcödé, \\"quoted\\""
    inputs: { text: "Refund \${env:ORDER}", lang: en }
    min_pass: 1
    until: { steps: 3, node: node-3 }
    expect:
      outputs:
        - { path: "results[0].summary", icontains: refund }
        - { path: "results[0].summary", matches: "/^re(f|F)und/i" }
        - { path: "results[0].code", matches: "[0-9]+" }
        - { path: results, length: { gte: 1, lt: 10 } }
        - { path: "results[0]", schema: { type: object, required: [summary], properties: { summary: { type: string } } } }
        - { path: "results[0]", schema: schemas/summary.json }
        - { path: "results[0]", snapshot: true, ignore: [id, at] }
        - { path: "results[0].summary", not_leaks: "*", min_chars: 30 }
        - { path: "results[0].flag", equals: false, not: true }
        - { path: "results[0].n", equals: 42 }
        - { path: "results[0].obj", equals: { a: [1, "two", null], b: { c: true } } }
      steps:
        count: 3
        sequence: [retriever, llm, formatter]
        each: { status: completed, service_type: ai_services }
      latency:
        total: { max: "< 8s", p95: "< baseline + 20%" }
        steps: { retriever: "< 500ms", "llm*": { p95: "< 4s", p50: "<= 2s" } }
  - name: skipped one
    skip: not today
    transport: ws
    inputs: { text: "x" }
    expect:
      outputs: [{ path: results, exists: true }]
`;

describe('a flow test file kept as JSON and read back', () => {
  it('is the file as parsed, every kind of assertion with what loading compiles for it', () => {
    const fresh = parsed(EVERY_KIND);
    const revived = throughJson(fresh);
    expectSame(revived, fresh, [{ summary: 'a' }, { summary: 1 }, {}, 'x']);
    const outputs = revived!.tests[0]!.expect.outputs;
    expect(outputs[1]!.regex?.test('REFUND now')).toBe(true);
    expect(revived!.tests[0]!.expect.latency?.steps.map((s) => s.regex.test('llm-large'))).toEqual([false, true, true]);
  });

  it('every example and test file of this repository comes back as it was parsed', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { repoRoot } = await import('../../helpers/cli.js');
    const texts = ['flows', 'examples'].flatMap((dir) =>
      readdirSync(join(repoRoot, dir))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => readFileSync(join(repoRoot, dir, f), 'utf8')),
    );
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) {
      const fresh = parsed(text);
      expectSame(throughJson(fresh), fresh);
    }
  });

  it('is not kept when JSON cannot say a value exactly (infinity, NaN, -0): the file is parsed again next time', () => {
    for (const value of ['.inf', '-.inf', '.nan', '-0']) {
      const text = `flow: f\ntests:\n  - name: t\n    expect:\n      outputs: [{ path: x, equals: ${value} }]\n`;
      const fresh = parsed(text);
      expect(fresh.tests[0]!.expect.outputs[0]!.expected, value).toSatisfy((v: unknown) => typeof v === 'number' && !Number.isFinite(v) || Object.is(v, -0) || Number.isNaN(v));
      expect(storedFlowTestFile(fresh), value).toBeUndefined();
    }
  });

  it('generated files, written as YAML, come back exactly as they were parsed', () => {
    const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s.length > 0);
    const value = fc.jsonValue({ maxDepth: 3 });
    const assertion = fc.oneof(
      value.map((v) => ({ path: 'results[0].x', equals: v })),
      fc.constantFrom('^a', '/b+/i', '[0-9]{2}', '/x/s').map((re) => ({ path: 'results[0].x', matches: re })),
      fc.record({ type: fc.constantFrom('string', 'number', 'object') }).map((s) => ({ path: 'results[0]', schema: s })),
      fc.integer({ min: 0, max: 5 }).map((n) => ({ path: 'results', length: { gte: n } })),
    );
    const test = fc.record({
      name,
      inputs: fc.dictionary(fc.constantFrom('a', 'b', 'text', 'lang'), fc.string({ maxLength: 12 })),
      expect: fc.record({ outputs: fc.array(assertion, { maxLength: 4 }) }),
    });
    const file = fc.uniqueArray(test, { minLength: 1, maxLength: 4, selector: (t) => t.name });
    fc.assert(
      fc.property(file, (tests) => {
        const r = parseFlowTestFile(stringify({ flow: 'f', tests }), 'flows/t.yaml', schema);
        fc.pre(r.ok);
        if (!r.ok) return;
        const json = storedFlowTestFile(r.value);
        // Only a value JSON cannot say exactly is ever left out.
        if (json === undefined) return expect(JSON.stringify(r.value, (_k, v: unknown) => (Object.is(v, -0) ? '-0' : v))).toMatch(/-0/);
        expectSame(reviveFlowTestFile(JSON.parse(json)), r.value);
      }),
      { numRuns: 300 },
    );
  });
});
