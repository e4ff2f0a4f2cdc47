import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ptr } from '../../../src/core/flows/load-context.js';
import { parsePointer } from '../../../src/core/text/yaml-source.js';
import { formatIssue } from '../../../src/core/errors.js';
import { parseFlowTestFile, type FlowTestFile } from '../../../src/core/flows/index.js';
import { loadSchema } from '../../../src/files/package-root.js';

const FILE = 'flows/summarize.yaml';

function load(text: string) {
  return parseFlowTestFile(text, FILE, loadSchema('flow-test'));
}

function loaded(text: string): FlowTestFile {
  const r = load(text);
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return r.value;
}

/** Every problem as `file:line:col: message`. */
function problems(text: string): string[] {
  const r = load(text);
  if (r.ok) throw new Error('expected the file to be refused');
  return r.issues.map(formatIssue);
}

const PRODUCT_EXAMPLE = `# flows/summarize.yaml
flow: summarize
transport: [https, ws]
tests:
  - name: summarizes an English ticket
    inputs: { text: "Refund my order", lang: en }
    repeat: 3
    min_pass: 2
    timeout: 60s
    until: { steps: 3, node: node-3, quiet: 3s }
    expect:
      outputs:
        - { path: "results[0].summary", icontains: refund }
        - { path: results, length: { gte: 1 } }
      steps:
        count: 3
        sequence: [retriever, llm, formatter]
        each: { status: completed }
      latency:
        total: "< 8s"
        steps: { retriever: "< 500ms", "llm*": { p95: "< 4s" } }
`;

describe('parseFlowTestFile', () => {
  it('loads the example of PRODUCT.md with every value parsed and located', () => {
    const file = loaded(PRODUCT_EXAMPLE);
    expect(file.flow).toBe('summarize');
    const [test] = file.tests;
    expect(test).toMatchObject({
      id: 'flows/summarize.yaml > summarizes an English ticket',
      name: 'summarizes an English ticket',
      line: 5,
      col: 5,
      inputs: { text: 'Refund my order', lang: 'en' },
      repeat: 3,
      minPass: 2,
      timeoutMs: 60_000,
      until: { steps: 3, node: 'node-3', quietMs: 3000 },
      transports: ['https', 'ws'],
    });
    expect(test!.expect.outputs.map((a) => [a.path, a.operator, a.line, a.col])).toEqual([
      ['results[0].summary', 'icontains', 13, 11],
      ['results', 'length', 14, 11],
    ]);
    expect(test!.expect.steps).toMatchObject({ count: { value: 3, line: 16 }, sequence: { line: 17 }, each: { line: 18 } });
    expect(test!.expect.latency!.total).toMatchObject([{ kind: 'max', budget: { op: '<', ms: 8000 }, line: 20 }]);
    expect(test!.expect.latency!.steps.map((b) => [b.pattern, b.kind, b.budget.ms, b.line])).toEqual([
      ['retriever', 'max', 500, 21],
      ['llm*', 'p95', 4000, 21],
    ]);
  });

  it('applies defaults, and a test overrides them key by key', () => {
    const file = loaded(`flow: f
defaults: { repeat: 4, min_pass: 3, timeout: 2m, until: { quiet: 500ms, steps: 2 } }
tests:
  - name: inherits
  - name: overrides
    repeat: 5
    until: { steps: 7 }
  - name: bare
    transport: ws
    skip: flaky upstream
`);
    const [a, b, c] = file.tests;
    expect(a).toMatchObject({ repeat: 4, minPass: 3, timeoutMs: 120_000, until: { quietMs: 500, steps: 2 } });
    expect(b).toMatchObject({ repeat: 5, minPass: 3, until: { quietMs: 500, steps: 7 } });
    expect(c).toMatchObject({ transports: ['ws'], skip: 'flaky upstream' });
    expect(a!.transports).toBeUndefined();
  });

  it('without defaults: one repeat that must pass, 60s timeout, 3s quiet', () => {
    const [t] = loaded('flow: f\ntests: [{ name: t, skip: true }]\n').tests;
    expect(t).toMatchObject({ repeat: 1, minPass: 1, timeoutMs: 60_000, until: { quietMs: 3000 }, skip: 'skipped' });
  });

  it('reports invalid YAML at its position', () => {
    expect(problems('flow: f\ntests:\n  - name: "open\n')).toEqual(['flows/summarize.yaml:4:1: Missing closing "quote']);
  });

  it('explains, once, why an unquoted [0] inside { } is not YAML', () => {
    const issues = problems(PRODUCT_EXAMPLE.replace('"results[0].summary"', 'results[0].summary'));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^flows\/summarize\.yaml:13:26: .*quote a value holding \[ \] or \{ \}: path: "results\[0\]\.summary", or write results\.0\.summary\)$/);
    expect(load(PRODUCT_EXAMPLE.replace('"results[0].summary"', 'results.0.summary')).ok).toBe(true);
  });

  it('reports unknown keys at the key, with a suggestion', () => {
    expect(problems('flow: f\ntests:\n  - name: t\n    repaet: 2\n')).toEqual([
      'flows/summarize.yaml:4:5: tests[0]: unknown key "repaet" (did you mean "repeat"?)',
    ]);
  });

  it('reports a missing flow and an empty tests list', () => {
    expect(problems('tests: []\n')).toEqual([
      'flows/summarize.yaml:1:1: missing required key "flow"',
      'flows/summarize.yaml:1:8: tests: must NOT have fewer than 1 items',
    ]);
  });

  it('names an unknown assertion operator once, with did-you-mean', () => {
    expect(problems('flow: f\ntests:\n  - name: t\n    expect:\n      outputs:\n        - { path: a, icontain: x }\n')).toEqual([
      'flows/summarize.yaml:6:22: tests[0].expect.outputs[0]: unknown assertion "icontain" (did you mean "icontains"?)',
    ]);
    expect(problems('flow: f\ntests:\n  - name: t\n    expect:\n      outputs:\n        - { path: a, zzzzzz: x }\n')[0]).toContain(
      'unknown assertion "zzzzzz" (one of: equals, contains',
    );
  });

  it('wants exactly one operator per assertion', () => {
    const out = 'flow: f\ntests:\n  - name: t\n    expect:\n      outputs:\n';
    expect(problems(`${out}        - { path: a, gt: 1, lt: 5 }\n`)).toEqual([
      'flows/summarize.yaml:6:29: tests[0].expect.outputs[0]: one operator per assertion, got gt and lt: write one assertion for each',
    ]);
    expect(problems(`${out}        - { path: a, not: true }\n`)[0]).toContain('6:11: tests[0].expect.outputs[0]: assertion has no operator');
  });

  it('reports bad durations and budgets at the value, in words', () => {
    expect(
      problems(`flow: f
tests:
  - name: t
    timeout: 5 sec
    expect:
      latency:
        total: "4s"
        steps: { llm: { p95: "< fast" } }
`),
    ).toEqual([
      'flows/summarize.yaml:4:14: tests[0].timeout: invalid duration "5 sec": use a number with ms, s, m or h, like 500ms, 1.5s or 2m',
      'flows/summarize.yaml:7:16: tests[0].expect.latency.total: invalid budget "4s": write a comparison and a duration, like "< 4s" or "<= 800ms"',
      'flows/summarize.yaml:8:30: tests[0].expect.latency.steps.llm.p95: invalid budget "< fast": use a number with ms, s, m or h, like 500ms, 1.5s or 2m, after < or <=',
    ]);
  });

  it('reports an invalid regex and an invalid embedded schema at their values', () => {
    const issues = problems(`flow: f
tests:
  - name: t
    expect:
      outputs:
        - { path: a, matches: "(unclosed" }
        - { path: b, schema: { type: strng } }
`);
    expect(issues[0]).toMatch(/^flows\/summarize\.yaml:6:31: tests\[0\]\.expect\.outputs\[0\]\.matches: invalid regular expression "\(unclosed": /);
    // The flow-test schema checks an inline schema's shape: the faulty key, at its value.
    expect(issues.slice(1)).toEqual([
      'flows/summarize.yaml:7:38: tests[0].expect.outputs[1].schema.type: must be one of "array", "boolean", "integer", "null", "number", "object", "string"',
    ]);
  });

  it('reports an inline schema that does not compile (a $ref to nowhere) at the schema', () => {
    const issues = problems(`flow: f
tests:
  - name: t
    expect:
      outputs:
        - { path: b, schema: { properties: { a: { $ref: "#/definitions/nope" } } } }
`);
    expect(issues).toEqual([
      "flows/summarize.yaml:6:30: tests[0].expect.outputs[0].schema: invalid JSON schema: can't resolve reference #/definitions/nope from id #",
    ]);
  });

  it('checks the keys of snapshot and not_leaks', () => {
    const issues = problems(`flow: f
tests:
  - name: t
    expect:
      outputs:
        - { path: a, snapshot: true, min_chars: 50 }
        - { path: a, not_leaks: support-agent, ignore: [x] }
        - { path: a, not: true, snapshot: true }
        - { path: a, snapshot: false }
        - { path: a, not_leaks: "*", min_chars: 3 }
`);
    expect(issues).toEqual([
      'flows/summarize.yaml:6:38: tests[0].expect.outputs[0]: "min_chars" goes with not_leaks only',
      'flows/summarize.yaml:7:48: tests[0].expect.outputs[1]: "ignore" goes with snapshot only',
      'flows/summarize.yaml:8:22: tests[0].expect.outputs[2]: "not" cannot be used with snapshot',
      'flows/summarize.yaml:9:32: tests[0].expect.outputs[3].snapshot: must be true',
      'flows/summarize.yaml:10:49: tests[0].expect.outputs[4].min_chars: must be >= 8',
    ]);
  });

  it('refuses min_pass above repeat, wherever each was written', () => {
    expect(problems('flow: f\ntests:\n  - { name: t, repeat: 2, min_pass: 3 }\n')).toEqual([
      'flows/summarize.yaml:3:37: tests[0].min_pass: min_pass 3 is more than repeat 2',
    ]);
    expect(problems('flow: f\ndefaults: { min_pass: 2 }\ntests:\n  - { name: t }\n  - { name: u }\n')).toEqual([
      'flows/summarize.yaml:2:23: defaults.min_pass: min_pass 2 is more than repeat 1',
    ]);
  });

  it('checks ${env:NAME} syntax and input names the WebSocket frame owns', () => {
    expect(
      problems(`flow: f
tests:
  - name: t
    inputs: { a: "\${env:OK} \${ENV:x}", service: s }
`),
    ).toEqual([
      'flows/summarize.yaml:4:18: tests[0].inputs.a: invalid reference "${ENV:x}": write ${env:NAME} (or $${ for a literal ${)',
      'flows/summarize.yaml:4:40: tests[0].inputs: input "service" cannot be sent over WebSocket: the frame\'s own "service" member has that name',
    ]);
    expect(load('flow: f\ntransport: https\ntests: [{ name: t, inputs: { service: s } }]\n').ok).toBe(true);
  });

  it('refuses duplicate test names and a bad output path', () => {
    expect(
      problems(`flow: f
tests:
  - name: same
  - name: same
    expect: { outputs: [{ path: "a..b", exists: true }] }
`),
    ).toEqual([
      'flows/summarize.yaml:4:11: tests[1].name: duplicate test name "same" (also on line 3)',
      'flows/summarize.yaml:5:33: tests[1].expect.outputs[0].path: invalid path "a..b": empty key at character 3 (write like results[0].summary)',
    ]);
  });

  it('reports wrong types and a bad transport from the schema', () => {
    expect(problems('flow: f\ntransport: smtp\ntests: [{ name: t, repeat: 0, inputs: { n: 3 } }]\n')).toEqual([
      'flows/summarize.yaml:2:12: transport: must be one of "https", "ws"',
      'flows/summarize.yaml:3:28: tests[0].repeat: must be >= 1',
      'flows/summarize.yaml:3:44: tests[0].inputs.n: must be string, got number',
    ]);
  });

  it('loads the same file twice (an embedded schema with $id does not collide)', () => {
    const text = 'flow: f\ntests: [{ name: t, expect: { outputs: [{ path: a, schema: { $id: "https://example.com/s.json", type: object } }] } }]\n';
    expect(load(text).ok).toBe(true);
    expect(load(text).ok).toBe(true);
  });

  it('refuses files of the wrong shape with one clear line each, never a crash', () => {
    expect(problems('')).toEqual(['flows/summarize.yaml:1:1: must be object, got null']);
    expect(problems('- a\n- b\n')).toEqual(['flows/summarize.yaml:1:1: must be object, got array']);
    expect(problems('flow: f\ntests: [{ name: t, expect: { outputs: [just-a-path] } }]\n')).toEqual([
      'flows/summarize.yaml:2:40: tests[0].expect.outputs[0]: must be object, got string',
    ]);
    expect(problems('flow: f\ntests: [5, null, { name: t, expect: 3, until: [] }]\n')).toEqual([
      'flows/summarize.yaml:2:9: tests[0]: must be object, got number',
      'flows/summarize.yaml:2:12: tests[1]: must be object, got null',
      'flows/summarize.yaml:2:37: tests[2].expect: must be object, got number',
      'flows/summarize.yaml:2:47: tests[2].until: must be object, got array',
    ]);
  });
});

describe('JSON pointers of flow test values', () => {
  it('ptr escapes any key so that parsePointer reads the same keys back', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: fc.constantFrom('a', '~', '/', '0', '1', '~0', '~1', ' ') }), fc.nat())), (keys) => {
        // `/` alone is read as the root (as ajv writes it), not as one empty key.
        if (!(keys.length === 1 && keys[0] === '')) expect(parsePointer(ptr('', ...keys))).toEqual(keys.map(String));
        expect(parsePointer(ptr('/tests', ...keys))).toEqual(['tests', ...keys.map(String)]);
      }),
      { numRuns: 1000 },
    );
  });
});
