import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { actionTestbed, echoFlowFile, roleFile, visibleLog } from './run-action.js';

const git = promisify(execFile);

const bed = actionTestbed('roleflow-action-preview-', async (workspace) => {
  const project = join(workspace, 'project');
  await mkdir(join(project, 'roles'), { recursive: true });
  await mkdir(join(project, 'flows'), { recursive: true });
  await writeFile(join(project, 'roleflow.config.yaml'), 'local:\n  preview: true\n');
  await writeFile(join(project, 'roles', 'a.md'), roleFile('a', 'first', 'You are A.'));
  await writeFile(join(project, 'flows', 'echo.yaml'), echoFlowFile([{ name: 'returns its inputs', key: 'greeting', value: 'hello' }]));
  const run = (args: string[]) => git('git', args, { cwd: workspace });
  await run(['init', '-q', '-b', 'main']);
  await run(['-c', 'user.email=a@example.com', '-c', 'user.name=a', 'add', '-A']);
  await run(['-c', 'user.email=a@example.com', '-c', 'user.name=a', 'commit', '-q', '-m', 'base']);
  await writeFile(join(project, 'roles', 'a.md'), roleFile('a', 'first', 'You are A, changed.'));
});

describe('the Action, command: preview', () => {
  it('previews on the preview tenant: the behaviour diff in the summary, the JSON kept, one sticky comment', async () => {
    const r = await bed.run({ command: 'preview', tenant: 'local', base: 'main', 'working-directory': 'project' });
    expect(r.code, visibleLog(r.log)).toBe(0);
    expect(r.outputs).toMatchObject({ exitcode: '0', regressions: '0' });
    expect(r.outputs['preview-file']).toMatch(/roleflow-preview-local\.json$/);
    expect(r.summary).toContain('### Behaviour diff — tenant <code>local</code>');
    expect(bed.github.comments).toHaveLength(1);
    expect(bed.github.comments[0]!.body.startsWith('<!-- roleflow:preview:local -->\n### Behaviour diff')).toBe(true);
  });

  it('fails the step, commenting why, on a tenant not marked preview: true (exit code 4, nothing sent)', async () => {
    await writeFile(join(bed.workspace, 'project', 'roleflow.config.yaml'), 'local:\n  preview: false\n');
    const r = await bed.run({ command: 'preview', tenant: 'local', base: 'main', 'working-directory': 'project' });
    expect(r.code).toBe(1);
    expect(r.outputs['exitcode']).toBe('4');
    expect(visibleLog(r.log)).toContain('::error::roleflow preview exited with code 4');
    expect(bed.github.comments.at(-1)!.body).toContain('`roleflow preview` failed (exit code 4)');
    await writeFile(join(bed.workspace, 'project', 'roleflow.config.yaml'), 'local:\n  preview: true\n');
  });

  it('needs a base outside a pull request', async () => {
    const r = await bed.run({ command: 'preview', tenant: 'local', 'working-directory': 'project' }, { event: 'push' });
    expect(r.code).toBe(1);
    expect(visibleLog(r.log)).toContain('command: preview needs a base: the input "base" (a git ref), or a pull_request event whose base commit it takes');
  });
});
