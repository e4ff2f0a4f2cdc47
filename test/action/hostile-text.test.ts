import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, type ActionRun } from './run-action.js';
import { hostileFlows, RAW_CONTROL } from '../helpers/hostile-text.js';

/**
 * Test names, skip reasons, WebSocket frames and Role names holding terminal escapes and line
 * breaks that start workflow commands, through the committed bundle as the runner runs it. The
 * log is read as the runner reads it: a line starting with `::` is a command, unless commands are
 * stopped (`::stop-commands::TOKEN` … `::TOKEN::`).
 */

const ATTACK_YAML = String.raw`\e]0;pwned\a \e[2J \0 \r \n::warning::x \n::add-mask::x \n::stop-commands::y \u2028`;

const FLOWS = hostileFlows(ATTACK_YAML);

const bed = actionTestbed('roleflow-action-hostile-', async (workspace) => {
  await mkdir(join(workspace, 'project', 'flows'), { recursive: true });
  await mkdir(join(workspace, 'project', 'roles'), { recursive: true });
  await writeFile(join(workspace, 'project', 'flows', 'echo.yaml'), FLOWS);
  await writeFile(join(workspace, 'project', 'roles', 'a.md'), `---\nname: "role ${ATTACK_YAML}"\ndescription: "d ${ATTACK_YAML}"\n---\nbody\n`);
});

interface ReadLog {
  /** Every workflow command the runner would carry out, in order. */
  commands: string[];
  /** The tokens that stopped commands. */
  tokens: string[];
  /** Lines shown while commands were stopped. */
  quoted: string[];
}

/** The log as the runner reads it. */
function readLog(log: string): ReadLog {
  const read: ReadLog = { commands: [], tokens: [], quoted: [] };
  let stoppedBy: string | undefined;
  for (const line of log.split('\n')) {
    if (stoppedBy !== undefined) {
      if (line === `::${stoppedBy}::`) stoppedBy = undefined;
      else read.quoted.push(line);
      continue;
    }
    if (!/^\s*::/.test(line)) continue;
    read.commands.push(line);
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) read.tokens.push((stoppedBy = stop[1]!));
  }
  expect(stoppedBy, 'commands are resumed at the end').toBeUndefined();
  return read;
}

function expectOnlyOwnCommands(run: ActionRun): ReadLog {
  expect(RAW_CONTROL.exec(run.log)?.[0], 'a raw control character in the log').toBeUndefined();
  const read = readLog(run.log);
  for (const command of read.commands) {
    // The Action's own: masks of the tokens it was given, annotations it wrote, the groups
    // folding roleflow's log, and the stops.
    expect(command).toMatch(
      /^::(add-mask::(rf_|ghs_)|error( (title|file)=[^:]*)?::|warning::Could not comment|notice title=roleflow (plan for|apply to) [^:]*::(Plan|Apply complete): |group::roleflow (test|plan|apply) |endgroup::$|stop-commands::roleflow-[0-9a-f-]{36}$|roleflow-[0-9a-f-]{36}::$)/,
    );
    expect(command).not.toMatch(/^\s*::(warning|add-mask|stop-commands)::[xy]/);
  }
  for (const token of read.tokens) expect(read.quoted.join('\n')).not.toContain(token);
  return read;
}

describe('the Action, with hostile text in test names, frames and Role names', () => {
  it('command: test — the log carries no command roleflow did not mean, and no raw control character', async () => {
    const run = await bed.run({ command: 'test', 'working-directory': 'project' });
    expect(run.outputs['exitcode']).toBe('3');
    const read = expectOnlyOwnCommands(run);
    // roleflow's console output was quoted, escapes visible.
    expect(read.quoted.join('\n')).toContain('name \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000 \\r \\n::warning::x \\n::add-mask::x');
    // The annotations at the failing assertions are real commands, one line each.
    expect(read.commands.filter((c) => c.startsWith('::error file=project/flows/echo.yaml'))).toHaveLength(2);
    for (const text of [run.summary, ...bed.github.comments.map((c) => c.body)]) {
      expect(RAW_CONTROL.exec(text)?.[0]).toBeUndefined();
      expect(text).not.toMatch(/^\s*::/m);
    }
    expect(run.summary).toContain('pwned');

    // Each run stops commands with a token of its own.
    const again = expectOnlyOwnCommands(await bed.run({ command: 'test', 'working-directory': 'project' }));
    expect(again.tokens.some((t) => read.tokens.includes(t))).toBe(false);
  });

  it('command: plan and apply — Role names are quoted in the log and escaped in the summary', async () => {
    const plan = await bed.run({ command: 'plan', 'working-directory': 'project' });
    expect(plan.outputs['exitcode']).toBe('0');
    const read = expectOnlyOwnCommands(plan);
    expect(read.quoted.join('\n')).toContain('role \\u001b]0;pwned\\u0007');
    expect(RAW_CONTROL.exec(plan.summary)?.[0]).toBeUndefined();

    const apply = await bed.run({ command: 'apply', 'working-directory': 'project' });
    expect(apply.outputs['exitcode']).toBe('0');
    expect(expectOnlyOwnCommands(apply).quoted.join('\n')).toContain('created "role \\u001b]0;pwned\\u0007');
    expect(RAW_CONTROL.exec(apply.summary)?.[0]).toBeUndefined();
  });
});
