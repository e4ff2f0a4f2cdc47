import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { hostileTenant, type HostileOptions, type HostileTenant } from './hostile-tenant-kit.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A folder whose config names the hostile tenant, with `limits` and these flow files. */
async function against(options: HostileOptions, limits: string, files: Record<string, string> = {}) {
  const tenant = await hostileTenant(options);
  const { dir, cleanup } = await tempDir('roleflow-limits-');
  cleanups.push(cleanup);
  const config = `default_tenant: hostile\ntenants:\n  hostile: { base_url: "${tenant.baseUrl}", ws_url: "${tenant.wsUrl}", retries: 3 }\nlimits: ${limits}\n`;
  await writeFile(join(dir, 'roleflow.config.yaml'), config);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  const run = (args: string[]) => runCli(args, { cwd: dir, env: { ROLEFLOW_TOKEN: 't0ken-hostile', NO_COLOR: '1' } });
  const report = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8')) as RunReport;
  return { tenant, dir, run, report };
}

describe('limits on what a tenant sends back', () => {
  it('an answer over limits.max_response_bytes is one clear error naming the limit, never retried', async () => {
    const t = await against({ roleBytes: 3 * 1024 * 1024 }, '{ max_response_bytes: 1MiB }');
    await mkdir(join(t.dir, 'roles'));
    const r = await t.run(['plan']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/GET \/admin\/roles\/get: the answer is larger than limits\.max_response_bytes \(1 MiB\); it was not read/);
    expect(r.stderr).not.toMatch(/at \w+ \(|connection lost/);
    expect(t.tenant.requests.filter((q) => q.startsWith('GET /admin/roles/get'))).toHaveLength(1);
  });

  it('an endless WebSocket stream ends that execution at limits.max_messages; the run goes on', async () => {
    const flows = {
      'flows/flood.yaml': `flow: flood\ntransport: ws\ntests:\n  - { name: endless, timeout: 1h }\n`,
      'flows/ok.yaml': `flow: fine\ntransport: https\ntests:\n  - { name: logs one step, until: { steps: 1 } }\n`,
    };
    const t = await against({}, '{ max_messages: 5000 }', flows);
    const r = await t.run(['test', '--reporter', 'console', '--reporter', 'json=out/report.json']);
    expect(r.code, r.stderr).toBe(3);
    const report = await t.report('out/report.json');
    const endless = report.results.find((x) => x.name === 'endless')!;
    expect(endless.status).toBe('error');
    expect(endless.repeats[0]!.error).toMatch(/more than limits\.max_messages \(5000\) messages in one execution .*: the rest was not read/);
    // What is kept stays within the limit: the ack and the messages before it.
    expect(endless.repeats[0]!.messages.length).toBeLessThanOrEqual(5000);
    expect(report.results.find((x) => x.name === 'logs one step')!.status).toBe('pass');
  });

  it('and at limits.max_execution_bytes, however few messages carry them', async () => {
    const flows = { 'flows/flood.yaml': `flow: flood\ntransport: ws\ntests:\n  - { name: heavy, timeout: 1h }\n` };
    const t = await against({ padding: 64 * 1024 }, '{ max_execution_bytes: 1MiB }', flows);
    const r = await t.run(['test', '--reporter', 'json=out/report.json']);
    expect(r.code, r.stderr).toBe(3);
    const repeat = (await t.report('out/report.json')).results[0]!.repeats[0]!;
    expect(repeat.error).toMatch(/more than limits\.max_execution_bytes \(1 MiB\) received in one execution/);
    expect(repeat.messages.length).toBeLessThan(20);
  });

  it('an HTTPS log longer than limits.max_messages ends that execution, naming the limit', async () => {
    const flows = { 'flows/long.yaml': `flow: long\ntransport: https\ntests:\n  - { name: long log, until: { steps: 3000 } }\n` };
    const t = await against({ logSteps: 3000 }, '{ max_messages: 1000 }', flows);
    const r = await t.run(['test', '--reporter', 'json=out/report.json']);
    expect(r.code, r.stderr).toBe(3);
    const repeat = (await t.report('out/report.json')).results[0]!.repeats[0]!;
    expect(repeat.error).toMatch(/the execution log holds 3000 steps, more than limits\.max_messages \(1000\)/);
    expect(repeat.steps).toHaveLength(1000);
  });
});

describe('reports of a run within the limits', () => {
  it('write the HTML report of a 200,000-message execution, its pictures sampled and saying so', async () => {
    const flows = { 'flows/flood.yaml': `flow: flood\ntransport: ws\ntests:\n  - { name: huge, timeout: 10m, until: { messages: 200000 } }\n` };
    const t: { tenant: HostileTenant } & Awaited<ReturnType<typeof against>> = await against({ messages: 200_000 }, '{ max_messages: 250000 }', flows);
    const r = await t.run(['test', '--reporter', 'console', '--reporter', 'html=out/report.html', '--reporter', 'json=out/report.json', '--reporter', 'junit=out/junit.xml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Tests: 1 passed/);
    const html = await readFile(join(t.dir, 'out/report.html'), 'utf8');
    expect(html).toContain('showing 500 of 200001 messages, sampled to keep the page small');
    expect(html.length).toBeLessThan(2 * 1024 * 1024);
    expect((await t.report('out/report.json')).results[0]!.repeats[0]!.messages).toHaveLength(200_001);
  }, 120_000);
});
