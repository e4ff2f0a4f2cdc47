import { describe, expect, it } from 'vitest';
import { parseFlowTestFile, type FlowTestFile } from '../../../src/core/flows/index.js';
import { rerunKey } from '../../../src/core/runs/loop/index.js';
import { selectRuns, type SelectOptions } from '../../../src/core/runs/index.js';
import { loadSchema } from '../../../src/files/package-root.js';

function file(yaml: string, name = 'flows/t.yaml'): FlowTestFile {
  const parsed = parseFlowTestFile(yaml, name, loadSchema('flow-test'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const TAGGED = file(`flow: f
tags: [refunds]
tests:
  - { name: quick, tags: [smoke] }
  - { name: long, tags: [slow] }
  - { name: plain }
`);
const UNTAGGED = file('flow: g\ntests:\n  - { name: other }\n', 'flows/u.yaml');

const names = (options: Partial<SelectOptions>, files = [TAGGED, UNTAGGED]) =>
  selectRuns(files, { hasWs: true, env: {}, ...options }).runs.map((r) => `${r.test.name} ${r.transport}`);

describe('selecting by tag and by a rerun', () => {
  it('gives each test its file\'s tags and its own', () => {
    expect(TAGGED.tests.map((t) => t.tags)).toEqual([['refunds', 'smoke'], ['refunds', 'slow'], ['refunds']]);
    expect(UNTAGGED.tests[0]!.tags).toBeUndefined();
  });

  it('runs the tests with any --tag, leaving out those with an --exclude-tag', () => {
    expect(names({ tags: { include: ['smoke'], exclude: [] }, transport: 'https' })).toEqual(['quick https']);
    expect(names({ tags: { include: ['refunds'], exclude: ['slow'] }, transport: 'https' })).toEqual(['quick https', 'plain https']);
    expect(names({ tags: { include: [], exclude: ['refunds'] }, transport: 'https' })).toEqual(['other https']);
  });

  it('runs only the test × transport pairs of a rerun, and counts what matched before sharding', () => {
    const only = new Set([rerunKey('flows/t.yaml > long', 'ws'), rerunKey('flows/u.yaml > other', 'https'), rerunKey('flows/gone.yaml > x', 'https')]);
    expect(names({ only })).toEqual(['long ws', 'other https']);
    expect(selectRuns([TAGGED, UNTAGGED], { hasWs: true, env: {}, only, shard: { index: 1, total: 2 } }).matched).toBe(2);
  });

  it('shards by past duration with timings, and records the plan either way', () => {
    const timings = new Map([
      ['flows/t.yaml > quick', 100],
      ['flows/t.yaml > long', 10_000],
    ]);
    const one = selectRuns([TAGGED, UNTAGGED], { hasWs: false, env: {}, shard: { index: 1, total: 2 }, timings });
    const two = selectRuns([TAGGED, UNTAGGED], { hasWs: false, env: {}, shard: { index: 2, total: 2 }, timings });
    // The long test alone in shard 1; the others (new ones at the median) in shard 2.
    expect(one.runs.map((r) => r.test.name)).toEqual(['long']);
    expect(two.runs.map((r) => r.test.name)).toEqual(['quick', 'plain', 'other']);
    expect(one.plan?.digest).toBe(two.plan?.digest);
    expect(one.plan?.by).toBe('timings');
    const robin = selectRuns([TAGGED, UNTAGGED], { hasWs: false, env: {}, shard: { index: 1, total: 2 } });
    expect(robin.plan).toMatchObject({ by: 'ids', digest: expect.stringMatching(/^sha256:/) });
    expect(robin.plan?.digest).not.toBe(one.plan?.digest);
  });

  it('refuses a tag that is not one word, at its line', () => {
    const parsed = parseFlowTestFile('flow: f\ntests:\n  - name: a\n    tags: [two words]\n', 'flows/t.yaml', loadSchema('flow-test'));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.issues[0]).toMatchObject({ line: 4 });
  });
});
