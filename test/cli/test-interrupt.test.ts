import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { runBin, runCli, signalledBin } from '../helpers/cli.js';
import { findAll, parseXml } from '../report/xml.js';
import { FLOWS_NOTE, suite, type Suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));

/**
 * One quick test of `echo`, then `sleepy` (a 5 s step) three times. With two executions at once,
 * the quick one and the first slow one start together; once the quick one has printed its line,
 * the second slow one is running and the third is waiting for a free slot.
 */
const FILES = {
  'flows/a-quick.yaml': 'flow: echo\ntransport: ws\ntests:\n  - { name: quick, inputs: { v: x }, until: { messages: 1 } }\n',
  'flows/b-slow.yaml': `flow: sleepy\ntransport: [https, ws]\ndefaults: { until: { steps: 1, node: node-1 }, timeout: 60s }\ntests:\n  - { name: slow one }\n  - { name: slow two }\n`,
};

const REPORTERS = ['--reporter', 'console', '--reporter', 'json=out/report.json', '--reporter', 'junit=out/junit.xml', '--reporter', 'github'];

/**
 * `roleflow test` as a process in the suite's folder; `signal` is sent as soon as stdout shows the
 * quick test's result. Resolves with the exit code and the output.
 */
function interrupted(s: Suite, signal: NodeJS.Signals, extra: string[]) {
  return signalledBin(['test', '--concurrency', '2', ...REPORTERS, ...extra], {
    cwd: s.dir,
    env: { GITHUB_STEP_SUMMARY: `${s.dir}/out/summary.md` },
    // Let the slot the quick test freed start the next slow execution.
    when: '✓ flows/a-quick.yaml > quick',
    delayMs: 300,
    signal,
  });
}

describe('roleflow test interrupted (the CLI as a process)', () => {
  it.each([
    ['SIGINT', []],
    ['SIGTERM', ['--bail']],
  ] as const)(
    'on %s %j: starts nothing new, ends what runs as interrupted, writes every report, prints the summary, exits 130',
    async (signal, extra) => {
      const s = await suite(FILES);
      const r = await interrupted(s, signal, [...extra]);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('Interrupted: ending the executions in flight; no new one starts; writing the reports');
      expect(r.stderr).toMatch(/^wrote out\/report\.json, out\/junit\.xml, \S*out\/summary\.md$/m);

      // The console: what finished, what did not, and the summary.
      expect(r.stdout).toContain('✓ flows/a-quick.yaml > quick [ws] 1/1');
      expect(r.stdout).toMatch(/^· flows\/b-slow\.yaml > slow \w+ \[\w+\] not run: the run was interrupted \(0 of 1 repeats ran\)$/m);
      expect(r.stdout).toMatch(/^Tests: 1 passed, 0 failed, 0 skipped, 4 not run \(5\) in \S+\nInterrupted: no new execution started, those in flight were ended; what did not finish is not run$/m);

      // JSON: valid, interrupted, the in-flight executions ended as interrupted, the rest never started.
      const report = JSON.parse(await s.read('out/report.json')) as RunReport;
      expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
      expect(report.interrupted).toBe(true);
      // An interrupted execution is no failure: --bail has nothing to stop for.
      expect(report.bailed).toBe(false);
      expect(r.stdout).not.toContain('Stopped early');
      expect(report.summary).toMatchObject({ tests: 5, passed: 1, failed: 0, not_run: 4 });
      const slow = report.results.filter((x) => x.flow === 'sleepy');
      expect(slow.map((x) => x.status)).toEqual(['not_run', 'not_run', 'not_run', 'not_run']);
      const endings = slow.map((x) => x.repeats[0]!.ended_by ?? 'never started').sort();
      // Two executions at once: the slow ones that had started were cut short, the others never started.
      expect(endings).toEqual(['interrupted', 'interrupted', 'never started', 'never started']);
      for (const x of slow.filter((x) => x.repeats[0]!.ended_by === 'interrupted')) {
        expect(x.repeats[0]).toMatchObject({ status: 'not_run', execution: 'error', assertions: [] });
        expect(x.repeats[0]!.error).toMatch(/: interrupted after \S+: the run was stopped \(SIGINT\/SIGTERM\)$/);
      }

      // JUnit: well-formed, the quick case passed, the rest skipped as not run.
      const junit = parseXml(await s.read('out/junit.xml'));
      expect(junit.attrs).toMatchObject({ tests: '5', failures: '0', errors: '0', skipped: '4' });
      const skipped = findAll(junit, 'skipped').map((e) => e.attrs['message']);
      expect(skipped).toEqual(Array(4).fill('not run: the run was interrupted'));

      // github: no annotation (nothing failed), the step summary says it was interrupted.
      expect(r.stdout).not.toContain('::error');
      expect(await s.read('out/summary.md')).toMatch(/^## ✅ roleflow test: 1 passed, 0 failed, 0 skipped, 4 not run \(5\)/);
      expect(await s.read('out/summary.md')).toContain('interrupted: what did not finish is not run');
    },
  );
});

describe('roleflow test listening for an interrupt', () => {
  it('prints no listener warning with many executions at once', async () => {
    const tests = Array.from({ length: 24 }, (_, i) => `  - { name: t${i}, inputs: { v: "${i}" } }\n`).join('');
    const s = await suite({ 'flows/many.yaml': `flow: echo\ndefaults: { until: { steps: 1, messages: 1 } }\ntests:\n${tests}` });
    const r = await runBin(['test', '--concurrency', '48'], { cwd: s.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`${FLOWS_NOTE}\n`);
  });
});

describe('roleflow test interrupted on a terminal', () => {
  it('clears the progress line before saying so, and leaves it cleared under the summary', async () => {
    const s = await suite(FILES);
    const r = await runCli(['test', '--concurrency', '2'], { cwd: s.dir, tty: true, env: { NO_COLOR: '1' }, interruptWhen: /✓ flows\/a-quick\.yaml > quick/, interruptAfterMs: 300 });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/running \d+\/5[^\n]*\r\x1b\[2KInterrupted: ending the executions in flight/);
    expect(r.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(r.stdout).toMatch(/Tests: 1 passed, 0 failed, 0 skipped, 4 not run \(5\) in \S+\nInterrupted: /);
  });
});
