import { Cli, type BaseContext, type Command } from 'clipanion';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCli, commandsNamedBy } from '../../src/cli.js';
import type { RoleflowContext } from '../../src/commands/base.js';
import { commandClasses } from '../../src/commands/index.js';

// main() parses with only the commands the first word names (commandsNamedBy), and with every
// command when that fails. Whenever the few parse, they must give what every command gives: the
// same command, with the same options.

const context = { ...Cli.defaultContext, cwd: '/', stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, stdoutIsPipe: false } as unknown as RoleflowContext & BaseContext;

/** The command's class and every option value it was given. */
function parsed(cli: Cli<RoleflowContext>, argv: string[]): { ok: true; command: unknown; options: unknown } | { ok: false } {
  let command: Command<RoleflowContext>;
  try {
    command = cli.process(argv, context);
  } catch {
    return { ok: false };
  }
  const options = Object.fromEntries(Object.entries(command).filter(([key, value]) => key !== 'cli' && key !== 'context' && typeof value !== 'function'));
  return { ok: true, command: command.constructor, options };
}

const firstWords = [...new Set(commandClasses.flatMap((c) => (c.paths ?? []).map((p) => p[0]!)))];
const words = fc.constantFrom(
  ...firstWords,
  'merge', 'compare', 'x', '-', '--', '-h', '--help', '-h=0', '-uh', '--help=1', '-v', '--version', '--json', '--format', 'json', '--out', 'p.json',
  '--target', 'a*', '--prune', '--no-prune', '--tenant', 'prod', '--concurrency', '8', '--repeat', '3', '--transport', 'ws',
  '--reporter', 'junit=r.xml', '--color', '--no-color', '--verbose', '--port', '0', '--data', 'd.json', '--grep', 'a', '-u', 'roles/a.md',
);
const argvs = fc.tuple(fc.constantFrom(...firstWords, 'x', '--help', '--version', '-v'), fc.array(words, { maxLength: 6 })).map(([first, rest]) => [first, ...rest]);

describe('parsing with the commands the first word names', () => {
  it('gives the command and options every command gives, whenever it parses', () => {
    const every = buildCli({ colors: false });
    let parsedByFew = 0;
    fc.assert(
      fc.property(argvs, (argv) => {
        const named = commandsNamedBy(argv);
        if (named === undefined) return;
        const few = parsed(buildCli({ colors: false, commands: named }), argv);
        if (!few.ok) return;
        parsedByFew++;
        expect(few).toEqual(parsed(every, argv));
      }),
      { numRuns: 1500 },
    );
    // The comparison ran on many arguments, not only on failures.
    expect(parsedByFew).toBeGreaterThan(100);
  });

  it('names the commands of that first word; help, and anything else, gets them all', () => {
    expect(commandsNamedBy(['report', 'merge'])!.map((c) => c.paths)).toEqual([[['report', 'merge']], [['report', 'compare']]]);
    expect(commandsNamedBy(['validate'])!.map((c) => c.paths)).toEqual([[['validate']]]);
    // The version is clipanion's own command, always registered.
    expect(commandsNamedBy(['--version'])).toEqual([]);
    expect(commandsNamedBy(['-v'])).toEqual([]);
    for (const argv of [['help', 'plan'], ['--help'], ['plan', '--help'], ['report', '-h'], ['plna'], []]) expect(commandsNamedBy(argv)).toBeUndefined();
  });
});
