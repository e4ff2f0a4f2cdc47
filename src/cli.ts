import { Builtins, Cli } from 'clipanion';
import type { RoleflowCommand, RoleflowContext } from './commands/base.js';
import { commandClasses } from './commands/index.js';
import { packageVersion } from './io/package-root.js';

/** Build the CLI. Command modules are light: each imports its heavy parts inside `execute`. */
export function buildCli(opts: { colors: boolean }): Cli<RoleflowContext> {
  const cli = new Cli<RoleflowContext>({
    binaryLabel: 'roleflow — GitOps for an AI-flow tenant',
    binaryName: 'roleflow',
    binaryVersion: version(),
    enableColors: opts.colors,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of commandClasses) cli.register(command);
  return cli;
}

/** Run the CLI with argv and a context; returns the exit code. Tests call this in-process. */
export async function main(argv: string[], context: RoleflowContext): Promise<number> {
  const noColor = argv.includes('--no-color') || (context.env['NO_COLOR'] ?? '') !== '';
  const cli = buildCli({ colors: !noColor && context.stdoutIsTTY && context.env['TERM'] !== 'dumb' });
  let command;
  try {
    command = cli.process(argv, context);
  } catch (error) {
    // Usage errors go to stderr, not stdout as clipanion would print them. A bad option value is one
    // line; an unknown command keeps clipanion's suggestions.
    const usage = (error as Error | null)?.name === 'UsageError';
    context.stderr.write(usage ? `error: ${(error as Error).message}\nrun 'roleflow ${argv[0] ?? ''} --help' for usage\n` : cli.error(error, { colored: false }));
    return 1;
  }
  const code = await cli.run(command, context);
  return (command as Partial<RoleflowCommand>).failedWith ?? code;
}

let cachedVersion: string | undefined;
export function version(): string {
  cachedVersion ??= packageVersion();
  return cachedVersion;
}
