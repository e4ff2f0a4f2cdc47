import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { actionTestbed, echoFlowFile, visibleLog, type ActionRun } from './run-action.js';

const MARKER = '<!-- roleflow:test:local -->';

// The embedded tenant's `echo` flow answers at once over WebSocket: quick tests.
const FLOWS = echoFlowFile([
  { name: 'returns its inputs', key: 'greeting', value: 'hello' },
  { name: 'says goodbye', key: 'greeting', value: 'hello', expected: 'goodbye' },
  { name: 'keeps the ticket', key: 'ticket', value: 'T-7' },
]);

/** A tenant configured in roleflow.config.yaml (shards of one run must share its address). */
let staging: RunningEmulator | undefined;
const STAGING_TOKEN = 'rf_staging_TOKEN_5a6b7c8d9e0f';

const bed = actionTestbed('roleflow-action-test-', async () => {
  await mkdir(join(bed.workspace, 'project', 'flows'), { recursive: true });
  await writeFile(join(bed.workspace, 'project', 'flows', 'echo.yaml'), FLOWS);
  staging = await startEmulator({ host: '127.0.0.1', port: 0, token: STAGING_TOKEN });
  await mkdir(join(bed.workspace, 'sharded', 'flows'), { recursive: true });
  await writeFile(join(bed.workspace, 'sharded', 'flows', 'echo.yaml'), FLOWS);
  await writeFile(
    join(bed.workspace, 'sharded', 'roleflow.config.yaml'),
    `default_tenant: staging\ntenants:\n  staging:\n    base_url: ${staging.baseUrl}\n    ws_url: ${staging.wsUrl}\n    token_env: ROLEFLOW_TOKEN_STAGING\n`,
  );
});
afterAll(async () => {
  await staging?.close();
});

function action(inputs: Record<string, string>, project = 'project'): Promise<ActionRun> {
  return bed.run({ 'working-directory': project, ...inputs }, { env: { ROLEFLOW_TOKEN_STAGING: STAGING_TOKEN } });
}

describe('the Action, command: test', () => {
  it('reports the results in outputs, annotations at the failing assertion, the summary and one sticky comment', async () => {
    const first = await action({ command: 'test' });
    expect(first.code).toBe(1);
    expect(first.outputs).toMatchObject({ exitcode: '3', 'tests-passed': '2', 'tests-failed': '1', 'tests-skipped': '0' });
    expect(first.log).toContain('::error::roleflow test exited with code 3');
    // At the assertion's line, from the repository root (the project is in a subfolder).
    expect(first.log).toMatch(/^::error file=project\/flows\/echo\.yaml,line=15,col=\d+,title=roleflow%3A says goodbye \[ws\]::.*goodbye/m);
    expect(first.summary).toContain('roleflow test: 2 passed, 1 failed');

    const second = await action({ command: 'test' });
    expect(second.outputs['exitcode']).toBe('3');
    expect(bed.github.comments).toHaveLength(1);
    const body = bed.github.comments[0]!.body;
    expect(second.log).toContain('Updated the comment on pull request #42');
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain('**2 passed, 1 failed, 0 skipped** of 3');
    // Failures first, with the reason; then the passing rows with their percentiles.
    expect(body.indexOf('❌ fail')).toBeLessThan(body.indexOf('✅ pass'));
    expect(body).toMatch(/\| ❌ fail \| <code>flows\/echo\.yaml<\/code> › says goodbye \(flow <code>echo<\/code>\) \| line 15: .*goodbye.* \| WebSocket \| 0\/1 \| [\d.]+ms \| [\d.]+ms \|/);
    expect(bed.github.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(bed.github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    for (const run of [first, second]) expect([visibleLog(run.log), run.summary, body].join('\n')).not.toContain('STANDINtoken');
  });

  it('merges the reports of a sharded matrix into one result and one comment', async () => {
    const reports = join(bed.workspace, 'sharded', 'downloaded');
    for (const shard of ['1/2', '2/2']) {
      const run = await action({ command: 'test', args: `--shard ${shard}`, comment: 'false' }, 'sharded');
      expect(run.outputs['report-file'], run.log).toBeDefined();
      // As actions/download-artifact lays them out: one folder per artifact.
      const dir = join(reports, `roleflow-report-${shard.replace('/', '-of-')}`);
      await mkdir(dir, { recursive: true });
      await copyFile(run.outputs['report-file']!, join(dir, 'roleflow-report-staging.json'));
      expect(run.log).toContain(`::add-mask::${STAGING_TOKEN}`);
      expect(visibleLog(run.log)).not.toContain('5a6b7c8d9e0f');
    }
    const merged = await action({ command: 'merge', args: 'downloaded' }, 'sharded');
    expect(merged.outputs, merged.log).toMatchObject({ exitcode: '3', 'tests-passed': '2', 'tests-failed': '1' });
    expect(merged.code).toBe(1);
    expect(merged.log).toMatch(/^::error file=sharded\/flows\/echo\.yaml,line=15,/m);
    const ours = bed.github.comments.filter((c) => c.body.startsWith('<!-- roleflow:test:staging -->'));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain('(2 shards merged)');
    expect(ours[0]!.body).toContain('**2 passed, 1 failed, 0 skipped** of 3');
    expect(ours[0]!.body).not.toContain('5a6b7c8d9e0f');
  });

  it('annotates an invalid flow test file at its line and runs nothing', async () => {
    await mkdir(join(bed.workspace, 'broken', 'flows'), { recursive: true });
    await writeFile(join(bed.workspace, 'broken', 'flows', 'bad.yaml'), 'flow: echo\ntests:\n  - name: x\n    inputs: {}\n    expect:\n      outputs:\n        - { path: "results", frobnicates: 1 }\n');
    const run = await action({ command: 'test', comment: 'false' }, 'broken');
    expect(run.code).toBe(1);
    expect(run.outputs['exitcode']).toBe('1');
    expect(run.outputs['tests-failed']).toBeUndefined();
    expect(run.log).toMatch(/^::error title=roleflow%3A invalid file,file=broken\/flows\/bad\.yaml,line=7,col=\d+::/m);
    expect(run.summary).toContain('`roleflow test` failed (exit code 1)');
  });

  it('fails a run that tested nothing, saying why, unless args accept it; the comment says so either way', async () => {
    const project = join(bed.workspace, 'skipped');
    await mkdir(join(project, 'flows'), { recursive: true });
    await writeFile(join(project, 'flows', 'echo.yaml'), FLOWS.replaceAll('    until:', '    skip: "not yet"\n    until:'));
    const failing = await action({ command: 'test' }, 'skipped');
    expect(failing.code).toBe(1);
    expect(failing.outputs).toMatchObject({ exitcode: '1', 'tests-passed': '0', 'tests-skipped': '3' });
    const why = 'no test ran: all 3 tests × transports were skipped (3: not yet)';
    expect(failing.log).toContain(`::error::roleflow test: ${why}; \`args: --pass-with-no-tests\` accepts a run that tests nothing`);
    const comment = () => bed.github.comments.find((c) => c.body.includes('Nothing was tested'))?.body;
    expect(comment()).toContain('⚠️ **0 passed, 0 failed, 3 skipped**');
    const said = `**Nothing was tested**: ${why.replace('×', '&#215;')}.`;
    expect(comment()).toContain(said);

    const accepted = await action({ command: 'test', args: '--pass-with-no-tests' }, 'skipped');
    expect(accepted.code, accepted.log).toBe(0);
    expect(accepted.outputs['exitcode']).toBe('0');
    expect(accepted.log).toContain(`${why} (--pass-with-no-tests)`);
    expect(bed.github.comments.filter((c) => c.body.includes(said))).toHaveLength(1);

    // merge: options in args go to report merge, the rest name the reports.
    await mkdir(join(project, 'reports'), { recursive: true });
    await copyFile(accepted.outputs['report-file']!, join(project, 'reports', 'run.json'));
    const merged = await action({ command: 'merge', args: 'reports', comment: 'false' }, 'skipped');
    expect(merged.code).toBe(1);
    expect(merged.log).toContain(`::error::roleflow report merge: ${why}`);
    const mergedOk = await action({ command: 'merge', args: 'reports --pass-with-no-tests', comment: 'false' }, 'skipped');
    expect(mergedOk.code, mergedOk.log).toBe(0);
  });

  it('fails in one line when there is no report to merge', async () => {
    const run = await action({ command: 'merge', args: 'nowhere', comment: 'false' });
    expect(run.code).toBe(1);
    expect(run.outputs['exitcode']).toBe('1');
    expect(run.log).toMatch(/nowhere:1:1: cannot read the file \(ENOENT\)/);
    expect(run.log).toContain('::error::roleflow report merge exited with code 1');
    expect(run.log).not.toMatch(/\n\s+at /);
  });
});
