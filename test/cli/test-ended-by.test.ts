import { describe, expect, it } from 'vitest';
import { ENDED_BY } from '../../src/core/flows/index.js';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));

/**
 * `hangs`: node 1 completes after 10ms, node 2 never does (its step takes an hour). Without an
 * until rule only quiet ends the execution, with node 1's outputs.
 */
const HANGS = `flow: hangs
tests:
  - name: no until
    transport: [https, ws]
    until: { quiet: 300ms }
    timeout: 10s
    expect:
      outputs:
        - { path: "results[0].service", equals: first }
      steps: { sequence: [first] }
  - name: until node 2
    transport: ws
    until: { node: node-2, quiet: 300ms }
    timeout: 1s
`;

const NO_UNTIL = ['--grep', 'no until'];
const report = (stdout: string) => JSON.parse(stdout) as RunReport;

describe('roleflow test: how each execution ended', () => {
  it('passes a flow whose node 2 never finishes when only quiet ends it, and says so on the console and in the JSON', async () => {
    const s = await suite({ 'flows/hangs.yaml': HANGS });
    const r = await s.test([...NO_UNTIL, '--reporter', 'console', '--reporter', 'json=out/report.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✓ flows\/hangs\.yaml > no until \[ws\] 1\/1 \S+ \(ended by quiet, no until reached\)$/m);
    expect(r.stdout).toMatch(/^✓ flows\/hangs\.yaml > no until \[https\] 1\/1 \S+ \(ended by quiet, no until reached\)$/m);
    const json = JSON.parse(await s.read('out/report.json')) as RunReport;
    expect(validReport(json), JSON.stringify(validReport.errors)).toBe(true);
    expect(json.results.map((x) => [x.transport, x.status, x.repeats[0]!.ended_by])).toEqual([
      ['https', 'pass', 'quiet'],
      ['ws', 'pass', 'quiet'],
    ]);
    // Node 1's outputs: the flow was cut short, and the report shows it.
    expect(json.results[1]!.repeats[0]!.messages.map((m) => m.node_id)).toEqual(['', 'node-1']);
  });

  it('fails it with --strict-end, or flows.strict_end: true, naming the quiet end', async () => {
    const s = await suite({ 'flows/hangs.yaml': HANGS });
    const strict = await s.test([...NO_UNTIL, '--strict-end', '--transport', 'ws']);
    expect(strict.code).toBe(3);
    expect(strict.stdout).toContain('✗ flows/hangs.yaml > no until [ws] 0/1');
    expect(strict.stdout).toContain(
      'flow "hangs" over WebSocket: ended by 300ms of quiet, not by an until rule (--strict-end): set until.node or until.messages to say when the flow is over',
    );
    await s.write('strict.yaml', `local: { flows_config: emulator-flows.yaml }\nflows: { strict_end: true }\n`);
    const configured = await s.test(['--config', 'strict.yaml', ...NO_UNTIL, '--json']);
    expect(configured.code).toBe(3);
    const json = report(configured.stdout);
    expect(json.results.map((x) => [x.transport, x.status, x.repeats[0]!.execution, x.repeats[0]!.ended_by])).toEqual([
      ['https', 'error', 'error', 'quiet'],
      ['ws', 'error', 'error', 'quiet'],
    ]);
    expect(json.results[0]!.repeats[0]!.error).toMatch(/ended by 300ms of quiet, not by an until rule \(--strict-end\): set until\.steps/);
    // --no-strict-end overrides the config for one run.
    expect((await s.test(['--config', 'strict.yaml', ...NO_UNTIL, '--no-strict-end'])).code).toBe(0);
  });

  it('ends it as a timeout error when until.node names the node that never finishes', async () => {
    const s = await suite({ 'flows/hangs.yaml': HANGS });
    const r = await s.test(['--grep', 'until node 2', '--json']);
    expect(r.code).toBe(3);
    const repeat = report(r.stdout).results[0]!.repeats[0]!;
    expect(repeat).toMatchObject({ status: 'error', ended_by: 'timeout' });
    expect(repeat.error).toBe('flow "hangs" over WebSocket: timed out after 1s waiting for the completed message of node "node-2" (1 completed messages so far)');
  });

  it('records ended_by for every execution: until, failed_step, error', async () => {
    const s = await suite({
      'flows/mixed.yaml': `flow: greet\ntests:\n  - { name: reaches until, inputs: { name: A }, until: { steps: 2, node: node-2 } }\n`,
      'flows/broken.yaml': `flow: broken\ntests:\n  - { name: step fails, until: { steps: 2, node: node-2 } }\n`,
      'flows/missing.yaml': `flow: nowhere\ntransport: https\ntests:\n  - { name: unknown flow, until: { steps: 1 } }\n`,
    });
    const json = report((await s.test(['--json'])).stdout);
    expect(json.results.map((x) => `${x.flow} ${x.transport} ${x.repeats[0]!.ended_by}`)).toEqual([
      'broken https failed_step',
      'broken ws failed_step',
      'nowhere https error',
      'greet https until',
      'greet ws until',
    ]);
  });

  it('the report schema lists exactly the ways an execution can end', () => {
    const schema = loadSchema('report') as { definitions: { repeat: { properties: { ended_by: { enum: string[] } } } } };
    expect(schema.definitions.repeat.properties.ended_by.enum).toEqual([...ENDED_BY]);
  });
});

describe('roleflow validate: a WebSocket test that only quiet can end', () => {
  it('warns on stderr, exit code unchanged, unless strict end is on', async () => {
    const s = await suite({ 'flows/hangs.yaml': HANGS });
    const r = await s.run(['validate', '--flows', 'flows']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0 role files and 1 flow test file are valid.\n');
    expect(r.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
      'flows/hangs.yaml:3:5: warning: test "no until" has no until.node or until.messages: over WebSocket it ends after until.quiet of silence, and passes even when a later node never finished; set one, or turn on flows.strict_end (--strict-end)',
    ]);
    const json = await s.run(['validate', '--flows', 'flows', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, issues: [] });
    expect(json.stderr).toContain('warning: test "no until"');
    await s.write('strict.yaml', 'flows: { strict_end: true }\n');
    const strict = await s.run(['validate', '--flows', 'flows', '--config', 'strict.yaml']);
    expect(strict.code).toBe(0);
    expect(strict.stderr).not.toContain('warning');
  });
});
