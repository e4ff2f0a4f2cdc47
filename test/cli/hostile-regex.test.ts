import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { signalledBin } from '../helpers/cli.js';
import { suite } from './test-kit.js';

/**
 * The attack: a tenant answers 5,000 `a`s and a `b`, and the test's patterns nest quantifiers.
 * A backtracking engine would take longer than the universe's age on each (34 `a`s took 413 s),
 * block the run and swallow Ctrl-C. A second test hangs for an hour: only SIGINT can end the run.
 */
const POISON = `${'a'.repeat(5000)}b`;
const FILES = {
  'flows/a-nested.yaml': `flow: echo
transport: ws
tests:
  - name: nested quantifiers
    inputs: { v: "${POISON}" }
    repeat: 3
    until: { messages: 1 }
    expect:
      outputs:
        - { path: "results[0].v", matches: "^(a+)+$" }
        - { path: "results[0]", schema: { type: object, properties: { v: { type: string, pattern: "^(a|aa)+$" } } } }
`,
  'flows/b-hangs.yaml': 'flow: hangs\ntransport: ws\ntests:\n  - { name: hangs, until: { messages: 2 }, timeout: 2h }\n',
};

describe('roleflow test against catastrophic patterns (the CLI as a process)', () => {
  it('judges them at once, and SIGINT mid-run ends it with 130 and the reports', async () => {
    const s = await suite(FILES);
    const { code, stdout, stderr } = await signalledBin(['test', '--concurrency', '4', '--reporter', 'console', '--reporter', 'json=out/report.json'], {
      cwd: s.dir,
      when: 'nested quantifiers',
      signal: 'SIGINT',
      // Only a run the signal cannot end meets this.
      killAfterMs: 20_000,
    });
    expect(code, stderr).toBe(130);
    expect(stdout).toMatch(/✗ flows\/a-nested\.yaml > nested quantifiers \[ws\]/);
    const report = JSON.parse(await s.read('out/report.json')) as RunReport;
    expect(report.interrupted).toBe(true);
    const nested = report.results.find((r) => r.name === 'nested quantifiers')!;
    expect(nested.status).toBe('fail');
    const messages = nested.repeats[0]!.assertions.map((a) => a.message);
    expect(messages).toEqual([expect.stringContaining('expected to match /^(a+)+$/'), expect.stringContaining('must match pattern "^(a|aa)+$"')]);
    expect(report.results.find((r) => r.name === 'hangs')!.status).toBe('not_run');
  });
});
