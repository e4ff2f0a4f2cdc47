import { describe, expect, it } from 'vitest';
import { parseFlowTestFile, type FlowTestFile } from '../../src/core/flows/index.js';
import { loadSchema } from '../../src/files/package-root.js';
import { selectRuns, type SelectOptions } from '../../src/core/runs/select.js';

function file(yaml: string): FlowTestFile {
  const parsed = parseFlowTestFile(yaml, 'flows/t.yaml', loadSchema('flow-test'));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const pairs = (files: FlowTestFile[], options: Partial<SelectOptions> = {}) =>
  selectRuns(files, { hasWs: true, env: {}, ...options }).runs.map((r) => `${r.test.name} ${r.transport}${r.skip ? ` skip: ${r.skip}` : ''}`);

const MIXED = file('flow: f\ntests:\n  - { name: both }\n  - { name: http only, transport: https }\n  - { name: ws only, transport: [ws] }\n');

describe('which test × transport pairs a run holds', () => {
  it('runs both transports where the tenant has a ws_url, else HTTPS, and skips a ws-only test without one', () => {
    expect(pairs([MIXED])).toEqual(['both https', 'both ws', 'http only https', 'ws only ws']);
    expect(pairs([MIXED], { hasWs: false })).toEqual([
      'both https',
      'http only https',
      'ws only ws skip: the tenant has no ws_url: the WebSocket transport is not available',
    ]);
  });

  it('narrows to --transport, leaving out tests that do not use it', () => {
    expect(pairs([MIXED], { transport: 'ws' })).toEqual(['both ws', 'ws only ws']);
  });

  it('applies --repeat, keeping min_pass within it', () => {
    const f = file('flow: f\ntransport: https\ntests:\n  - { name: a }\n  - { name: b, repeat: 5, min_pass: 3 }\n  - { name: c, repeat: 5, min_pass: 1 }\n');
    const runs = selectRuns([f], { hasWs: true, env: {}, repeat: 2 }).runs;
    expect(runs.map((r) => [r.test.name, r.test.repeat, r.test.minPass])).toEqual([
      ['a', 2, 2],
      ['b', 2, 2],
      ['c', 2, 1],
    ]);
  });

  it('resolves ${env:} inputs, collects the secret values to redact, and marks a missing variable as an error', () => {
    const f = file('flow: f\ntransport: https\nsecrets: [KEY]\ntests:\n  - { name: a, inputs: { k: "${env:KEY}", u: "${env:USER_NAME}" } }\n');
    const ok = selectRuns([f], { hasWs: true, env: { KEY: 's3cret', USER_NAME: 'ada' } });
    expect(ok.runs[0]).toMatchObject({ inputs: { k: 's3cret', u: 'ada' } });
    expect(ok.runs[0]!.error).toBeUndefined();
    expect(ok.secrets).toEqual(['s3cret']);
    const missing = selectRuns([f], { hasWs: true, env: { KEY: 's3cret' } });
    expect(missing.runs[0]!.error).toBe('environment variable USER_NAME not set (used in inputs as ${env:NAME})');
  });

  it('counts the tests --grep matched, before sharding', () => {
    const f = file('flow: f\ntransport: https\ntests:\n  - { name: alpha }\n  - { name: beta }\n  - { name: alphabet }\n');
    const s = selectRuns([f], { hasWs: true, env: {}, grep: /^alpha/, shard: { index: 2, total: 2 } });
    expect(s.matched).toBe(2);
    expect(s.runs.map((r) => r.test.name)).toEqual(['alphabet']);
  });
});
