import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, project } from './roles-kit.js';
import { EMULATOR_FLOWS, FLOWS_NOTE, GREET, runInProcess, suite } from './test-kit.js';

describe('a flows file of the config\'s own in place of the built-in flows', () => {
  it('test on the embedded tenant says so once on stderr; serve says so unless --flows-config asks for a file', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    const test = await runCli(['test'], { cwd: s.dir });
    expect(test.code, test.stderr).toBe(0);
    expect(test.stderr).toBe(`${FLOWS_NOTE}\n`);
    const serve = await runInProcess(['serve', '--port', '0'], { cwd: s.dir, stopAtOnce: true });
    expect(serve.stderr).toBe(`${FLOWS_NOTE}\n`);
    const asked = await runInProcess(['serve', '--port', '0', '--flows-config', 'emulator-flows.yaml'], { cwd: s.dir, stopAtOnce: true });
    expect(asked.stderr).toBe('');
  });

  it('says nothing with the built-in flows, or on a tenant that is not the embedded one', async () => {
    const p = await project({ 'flows/echo.yaml': 'flow: echo\ntransport: https\ntests:\n  - name: e\n    until: { steps: 1 }\n    expect: { steps: { count: 1 } }\n' });
    expect(await runCli(['test'], { cwd: p.dir })).toMatchObject({ code: 0, stderr: '' });
    await p.write('own-flows.yaml', EMULATOR_FLOWS);
    await p.write('roleflow.config.yaml', 'local: { flows_config: own-flows.yaml }\n');
    const em = await emulator();
    expect(await runCli(['test', '--base-url', em.baseUrl], { cwd: p.dir, env: { ROLEFLOW_TOKEN: em.token } })).toMatchObject({ code: 0, stderr: '' });
  });
});
