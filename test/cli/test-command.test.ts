import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { closedPort } from '../integration/client-kit.js';
import { startEmulator } from '../../src/emulator/index.js';
import { GREET, GREET_FAILING, suite } from './test-kit.js';

const report = (stdout: string) => JSON.parse(stdout) as RunReport;
const ids = (r: RunReport) => r.results.map((x) => `${x.id} [${x.transport}]`);

describe('roleflow test', () => {
  it('runs every flow test over both transports and exits 0 when all pass', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    const r = await s.test();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ flows/greet.yaml > greets Ada [https] 1/1');
    expect(r.stdout).toContain('✓ flows/greet.yaml > greets Grace [ws] 1/1');
    // Honest about what a transport cannot check.
    expect(r.stdout).toMatch(/- results\[0\]\.greeting equals "Hello Ada": skipped: the HTTPS execution logs carry no outputs \(flows\/greet\.yaml:9:11\)/);
    expect(r.stdout).toMatch(/greet\s+https\s+2\s+0\s+0\s+\S+ms\s+\S+/);
    expect(r.stdout).toMatch(/Tests: 4 passed, 0 failed, 0 skipped \(4\) in \S+; 4 assertions skipped\n$/);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('--quiet leaves out the skipped assertions\' lines and keeps their count', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    const r = await s.test(['--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ flows/greet.yaml > greets Ada [https] 1/1');
    expect(r.stdout).not.toContain('skipped: the HTTPS execution logs carry no outputs');
    expect(r.stdout).toMatch(/Tests: 4 passed, 0 failed, 0 skipped \(4\) in \S+; 4 assertions skipped\n$/);
  });

  it('exits 3 when a test fails, showing expected and actual at file:line:col', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET, 'flows/bad.yaml': GREET_FAILING });
    const r = await s.test();
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('✗ flows/bad.yaml > expects a wrong greeting [ws] 0/1');
    expect(r.stdout).toContain('✗ results[0].greeting: expected to equal "Hi Linus", got "Hello Linus" (flows/bad.yaml:9:11)');
    expect(r.stdout).toContain('✗ latency.steps.llm max < 10ms: expected max < 10ms, got 25ms (max of 1 step, server-reported) (flows/bad.yaml:11:23)');
    expect(r.stdout).toContain('Tests: 4 passed, 2 failed, 0 skipped (6)');
  });

  it('runs nothing when a file is invalid: every problem at file:line:col, exit 1', async () => {
    const s = await suite({
      'flows/greet.yaml': GREET,
      'flows/typo.yaml': 'flow: greet\ntests:\n  - name: a\n    repaet: 2\n    expect:\n      outputs:\n        - { path: results, contians: x }\n      latency: { total: "< 3 fortnights" }\n',
      'flows/nested/broken.yml': 'flow: greet\ntests:\n  - { name: a, inputs: { text: [ }\n',
    });
    const r = await s.test();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^flows\/nested\/broken\.yml:3:\d+: /);
    expect(lines[1]).toMatch(/^flows\/typo\.yaml:4:5: tests\[0\]: unknown key "repaet" \(did you mean "repeat"\?\)$/);
    expect(lines[2]).toMatch(/^flows\/typo\.yaml:7:28: .*unknown assertion "contians" \(did you mean "contains"\?\)$/);
    expect(lines[3]).toMatch(/^flows\/typo\.yaml:8:25: .*invalid budget "< 3 fortnights"/);
    // The embedded tenant was never started: nothing ran.
    expect(existsSync(join(s.dir, '.roleflow'))).toBe(false);
  });

  it('selects tests with --grep on "file > name" or the name, and refuses a pattern that matches nothing', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET, 'flows/bad.yaml': GREET_FAILING });
    const byName = await s.test(['--grep', 'Ada$', '--json']);
    expect(byName.code).toBe(0);
    expect(ids(report(byName.stdout))).toEqual(['flows/greet.yaml > greets Ada [https]', 'flows/greet.yaml > greets Ada [ws]']);
    const byFile = await s.test(['--grep', '^flows/bad', '--transport', 'ws', '--json']);
    expect(byFile.code).toBe(3);
    expect(ids(report(byFile.stdout))).toEqual(['flows/bad.yaml > expects a wrong greeting [ws]']);
    const none = await s.test(['--grep', 'nobody']);
    expect(none).toMatchObject({ code: 1, stdout: '', stderr: 'error: no test ran: no test matches --grep nobody; --pass-with-no-tests accepts a run that tests nothing\n' });
    const invalid = await s.test(['--grep', '(']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^error: --grep: invalid regular expression "\(": Unterminated group$/m);
  });

  it('splits the suite with --shard: 1/2 and 2/2 together run every test exactly once', async () => {
    const five = `flow: echo\ntransport: ws\ndefaults: { until: { messages: 1 } }\ntests:\n${['a', 'b', 'c', 'd', 'e'].map((n) => `  - { name: ${n}, inputs: { v: ${n} } }\n`).join('')}`;
    const s = await suite({ 'flows/echo.yaml': five, 'flows/greet.yaml': GREET });
    const first = report((await s.test(['--shard', '1/2', '--json'])).stdout);
    const second = report((await s.test(['--shard', '2/2', '--json'])).stdout);
    const all = [...first.results, ...second.results].map((x) => x.id);
    expect(new Set(all).size).toBe(7);
    expect(first.results.length + second.results.length).toBe(5 + 2 * 2);
    expect(Math.abs(new Set(first.results.map((x) => x.id)).size - new Set(second.results.map((x) => x.id)).size)).toBeLessThanOrEqual(1);
    expect(first.shard).toEqual({ index: 1, total: 2 });
    const bad = await s.test(['--shard', '3/2']);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: invalid --shard "3/2": the shard must be between 1 and 2\n' });
  });

  it('with --bail starts nothing new after the first failed test', async () => {
    const failing = `flow: broken\ntransport: https\ndefaults: { until: { steps: 2 } }\ntests:\n  - name: one\n  - name: two\n  - name: three\n`;
    const s = await suite({ 'flows/broken.yaml': failing });
    const r = await s.test(['--bail', '--concurrency', '1', '--json']);
    expect(r.code).toBe(3);
    const json = report(r.stdout);
    expect(json.bailed).toBe(true);
    // Not run, apart from what the test files skip: --bail stopped them.
    expect(json.results.map((x) => x.status)).toEqual(['fail', 'not_run', 'not_run']);
    expect(json.results[1]!.message).toBe('not run: --bail stopped the run after a failure (0 of 1 repeats ran)');
    expect(json.summary).toMatchObject({ tests: 3, failed: 1, skipped: 0, not_run: 2, executions: 1 });
    const console = await s.test(['--bail', '--concurrency', '1']);
    expect(console.stdout).toContain('· flows/broken.yaml > two [https] not run: --bail stopped the run after a failure (0 of 1 repeats ran)');
    expect(console.stdout).toMatch(/Tests: 0 passed, 1 failed, 0 skipped, 2 not run \(3\)/);
    expect(console.stdout).toMatch(/^flow\s+transport\s+pass\s+fail\s+skip\s+not run\s+p50\s+p95$/m);
    const without = report((await s.test(['--concurrency', '1', '--json'])).stdout);
    expect(without.summary).toMatchObject({ failed: 3, executions: 3 });
  });

  it('overrides repeat with --repeat (min_pass kept within it) and narrows transports with --transport', async () => {
    const s = await suite({
      'flows/greet.yaml': `flow: greet\ndefaults: { until: { steps: 2, node: node-2 } }\ntests:\n  - { name: all, inputs: { name: A } }\n  - { name: some, inputs: { name: B }, repeat: 4, min_pass: 3 }\n`,
    });
    const json = report((await s.test(['--repeat', '2', '--transport', 'https', '--json'])).stdout);
    expect(json.results.map((x) => [x.name, x.transport, x.repeat, x.min_pass, x.repeats.length, x.passed])).toEqual([
      ['all', 'https', 2, 2, 2, 2],
      ['some', 'https', 2, 2, 2, 2],
    ]);
  });

  it('reports a skipped test with its reason, and a missing ${env:} as an error of that test only', async () => {
    const s = await suite({
      'flows/greet.yaml': `flow: greet\ntransport: ws\ndefaults: { until: { node: node-2 } }\ntests:\n  - { name: later, skip: "waiting for the new model", inputs: { name: A } }\n  - { name: needs env, inputs: { name: "\${env:GREET_NAME}" } }\n  - { name: plain, inputs: { name: C } }\n`,
    });
    const r = await s.test();
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('- flows/greet.yaml > later [ws] skipped: waiting for the new model');
    expect(r.stdout).toContain('✗ flow "greet" over WebSocket: environment variable GREET_NAME not set (used in inputs as ${env:NAME}) (flows/greet.yaml:6:5)');
    expect(r.stdout).toContain('✓ flows/greet.yaml > plain [ws]');
    expect(r.stdout).toContain('Tests: 1 passed, 1 failed (1 errored), 1 skipped (3)');
    const withEnv = await s.test([], { env: { GREET_NAME: 'Edsger' } });
    expect(withEnv.code).toBe(0);
  });

  it('shows a live progress line on a terminal only, cleared at the end, and colours only there', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    const tty = await s.test([], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/\r\x1b\[2Krunning \d+\/4/);
    expect(tty.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(tty.stdout).toContain('\x1b[32m✓\x1b[0m');
    const noColor = await s.test([], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
    const piped = await s.test();
    expect(piped.stderr).toBe('');
  });

  it('exits 1 when the tenant is unreachable or refuses the token, without printing the token', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    const port = await closedPort();
    // No retries: a refused connection would otherwise be tried again with backoff.
    await s.write('down.yaml', `tenants:\n  down: { base_url: "http://127.0.0.1:${port}", retries: 0 }\n`);
    const down = await s.test(['--config', 'down.yaml', '--tenant', 'down'], { env: { ROLEFLOW_TOKEN: 'tok-abcdef-123' } });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: tenant down cannot run the tests: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; the run was stopped\n$/);
    // What the tenant being down left unstarted says so: no --bail was given.
    const oneByOne = await s.test(['--config', 'down.yaml', '--tenant', 'down', '--concurrency', '1'], { env: { ROLEFLOW_TOKEN: 'tok-abcdef-123' } });
    expect(oneByOne.code).toBe(1);
    expect(oneByOne.stdout).toContain('· flows/greet.yaml > greets Grace [https] not run: the tenant cannot run the tests, so the run was stopped');
    expect(oneByOne.stdout).not.toContain('--bail');

    const emulator = await startEmulator({ token: 'the-right-token-1' });
    try {
      const refused = await s.test(['--base-url', emulator.baseUrl, '--ws-url', emulator.wsUrl], { env: { ROLEFLOW_TOKEN: 'a-wrong-token-99' } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: tenant custom cannot run the tests: (POST \/flow\/greet: 401 unauthorized|WebSocket upgrade refused: 403)/);
      expect(refused.stdout + refused.stderr).not.toContain('a-wrong-token-99');
    } finally {
      await emulator.close();
    }
  });

  it('explains a missing flows folder and a path that does not exist', async () => {
    const s = await suite({});
    expect((await s.test()).stderr).toMatch(/^error: no flow tests: folder flows\/ not found/);
    expect(await s.test(['nowhere.yaml'])).toMatchObject({ code: 1, stderr: 'error: nowhere.yaml: no such file or folder\n' });
  });
});
