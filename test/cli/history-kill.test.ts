import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/core/apply/history/index.js';
import { tempDir } from '../helpers/cli.js';
import { roleText } from './roles-kit.js';
import { http, runOnce, serve, snapshotBin, type Served } from './serve-kit.js';

const TOKEN = 'kill-test-T0ken-0b7c2d';
const NAMES = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];

let bin: string;
let dir: string;
let tenant: Served;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  const snapshot = await snapshotBin();
  const temp = await tempDir('roleflow-kill-');
  bin = snapshot.bin;
  dir = temp.dir;
  cleanups.push(snapshot.cleanup, temp.cleanup);
  // Every answer takes 300 ms: an apply of eight creates one at a time is long enough to be killed midway.
  tenant = await serve(bin, ['--port', '0', '--latency', '300', '--token', TOKEN], { cwd: dir });
  cleanups.unshift(async () => void (await tenant.stop('SIGKILL')));
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function names(): Promise<string[]> {
  const listed = await http(tenant.baseUrl, 'GET', '/admin/roles/get', TOKEN);
  return (listed.body as { name: string }[]).map((r) => r.name).sort();
}

const journal = async () => readJournal(await readFile(join(dir, '.roleflow/history/prod.jsonl'), 'utf8').catch(() => '')).records;

describe('an apply killed midway', () => {
  it('leaves a journal record that reads as interrupted; running apply again converges with no duplicate and completes the journal', async () => {
    await writeFile(join(dir, 'roleflow.config.yaml'), `tenants:\n  prod: { base_url: "${tenant.baseUrl}" }\ndefault_tenant: prod\n`);
    await mkdir(join(dir, 'roles'));
    for (const name of NAMES) await writeFile(join(dir, 'roles', `${name}.md`), roleText(name, 'd', `You are ${name}.`));

    const child = spawn(process.execPath, [bin, 'apply', '--auto-approve', '--concurrency', '1'], { cwd: dir, env: { ...process.env, ROLEFLOW_TOKEN: TOKEN }, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Killed once two Roles are on the tenant: the others are not.
    for (;;) {
      if ((await names()).length >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const made = await names();
    expect(made.length).toBeLessThan(NAMES.length);

    const [killed, ...none] = await journal();
    expect(none).toEqual([]);
    expect(killed).toMatchObject({ status: 'interrupted', command: 'apply', tenant: 'prod' });
    expect(killed!.finished_at).toBeUndefined();
    expect(killed!.changes.map((c) => c.name)).toEqual(NAMES);
    const listed = await runOnce(bin, ['history'], { cwd: dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(listed.stdout).toContain(`${killed!.id}  `);
    expect(listed.stdout).toMatch(/\+8 ~0 -0 +interrupted/);
    const shown = await runOnce(bin, ['history', 'show', killed!.id], { cwd: dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(shown.stdout).toContain('It was never completed: the process ended during the apply.');

    const again = await runOnce(bin, ['apply', '--auto-approve'], { cwd: dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(again.code, again.stderr).toBe(0);
    // Each Role once.
    expect(await names()).toEqual(NAMES);
    const records = await journal();
    expect(records.map((r) => r.status)).toEqual(['interrupted', 'completed']);
    expect(records[1]!.changes.map((c) => c.name)).toEqual(NAMES.filter((n) => !made.includes(n)));
    expect(Object.keys(records[1]!.state!)).toEqual(NAMES);
    const drift = await runOnce(bin, ['drift', '--detailed-exitcode'], { cwd: dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(drift.code, drift.stdout).toBe(0);
  });
});
