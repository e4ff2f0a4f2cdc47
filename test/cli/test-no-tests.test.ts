import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { emulator } from './roles-kit.js';
import { GREET, suite } from './test-kit.js';

const ACCEPT = '; --pass-with-no-tests accepts a run that tests nothing\n';

/** GREET with every test skipped. */
const SKIPPED = GREET.replaceAll('    inputs:', '    skip: waiting for the new model\n    inputs:');

describe('a test run in which no test ran', () => {
  it('every test skip: exits 1 with one line saying why, the reports written; --pass-with-no-tests exits 0', async () => {
    const s = await suite({ 'flows/greet.yaml': SKIPPED });
    const r = await s.test(['--reporter', 'console', '--reporter', 'json=report.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`wrote report.json\nerror: no test ran: all 4 tests × transports were skipped (4: waiting for the new model)${ACCEPT}`);
    expect((JSON.parse(await s.read('report.json')) as RunReport).summary).toMatchObject({ tests: 4, skipped: 4 });
    const accepted = await s.test(['--pass-with-no-tests', '--json']);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toBe('no test ran: all 4 tests × transports were skipped (4: waiting for the new model) (--pass-with-no-tests)\n');
  });

  it('--grep matching nothing, and an empty shard, are the same: exit 1, unless --pass-with-no-tests', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    expect(await s.test(['--grep', 'nobody'])).toEqual({ code: 1, stdout: '', stderr: `error: no test ran: no test matches --grep nobody${ACCEPT}` });
    const grepped = await s.test(['--grep', 'nobody', '--pass-with-no-tests', '--json']);
    expect(grepped).toMatchObject({ code: 0, stderr: 'no test ran: no test matches --grep nobody (--pass-with-no-tests)\n' });
    expect((JSON.parse(grepped.stdout) as RunReport).results).toEqual([]);

    // Two tests dealt over three shards: the third holds none.
    expect(await s.test(['--shard', '3/3', '--json'])).toMatchObject({ code: 1, stderr: `error: no test ran: shard 3/3 holds none of the tests selected${ACCEPT}` });
    expect(await s.test(['--shard', '3/3', '--json', '--pass-with-no-tests'])).toMatchObject({ code: 0 });
  });

  it('a WebSocket-only suite on a tenant without a ws_url: exit 1, naming the reason', async () => {
    const em = await emulator();
    const s = await suite(
      { 'flows/greet.yaml': GREET.replace('flow: greet\n', 'flow: echo\ntransport: ws\n') },
      `tenants:\n  nows: { base_url: "${em.baseUrl}", token_env: NOWS_TOKEN }\n`,
    );
    onTestFinished(() => em.close());
    const r = await s.test(['--tenant', 'nows'], { env: { NOWS_TOKEN: em.token } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: no test ran: all 2 tests × transports were skipped (2: the tenant has no ws_url: the WebSocket transport is not available)${ACCEPT}`);
    expect(em.requests()).toEqual([]);
  });

  it('a test that ran, its assertions all skipped, is a test that ran (validate warns of it): exit 0', async () => {
    const outputsOnly = 'flow: greet\ntransport: https\ntests:\n  - name: t\n    inputs: { name: Ada }\n    until: { steps: 2 }\n    expect:\n      outputs:\n        - { path: "results[0].greeting", equals: Hello Ada }\n';
    const s = await suite({ 'flows/greet.yaml': outputsOnly });
    const r = await s.test(['--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as RunReport).summary).toMatchObject({ skipped: 1, executions: 1 });
  });

  it('report merge of a run that tested nothing: exit 1, unless --pass-with-no-tests', async () => {
    const s = await suite({ 'flows/greet.yaml': SKIPPED });
    expect((await s.test(['--reporter', 'json=run.json', '--pass-with-no-tests'])).code).toBe(0);
    const merged = await s.run(['report', 'merge', 'run.json', '--out', 'merged.json']);
    expect(merged.code).toBe(1);
    expect(merged.stderr).toContain(`error: no test ran: all 4 tests × transports were skipped (4: waiting for the new model)${ACCEPT}`);
    expect(existsSync(join(s.dir, 'merged.json'))).toBe(true);
    expect(await s.run(['report', 'merge', 'run.json', '--out', 'merged.json', '--pass-with-no-tests'])).toMatchObject({ code: 0 });
  });
});
