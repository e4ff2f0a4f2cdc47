import { Builtins, Cli, type CommandClass } from 'clipanion';
import type { RoleflowCommand, RoleflowContext } from './commands/base.js';
import { describeUsageError } from './terminal/error-line.js';
import { argvSecrets, environmentSecrets, redactAll } from './core/text/redact.js';
import { useColor } from './terminal/color.js';
import { commandClasses } from './commands/index.js';
import { ExitCode } from './core/exit-codes.js';
import { escapeControls } from './core/text/safe-text.js';
import { packageVersion } from './files/package-root.js';

/**
 * Build the CLI. Command modules are light: each imports its heavy parts inside `execute`. Given
 * the words typed, only the commands they can name are registered (clipanion builds a parser of
 * every registered command on each run).
 */
export function buildCli(opts: { colors: boolean }, argv?: readonly string[]): Cli<RoleflowContext> {
  const cli = new RoleflowCli({
    binaryLabel: 'roleflow — GitOps for an AI-flow tenant',
    binaryName: 'roleflow',
    binaryVersion: version(),
    enableColors: opts.colors,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of argv === undefined ? commandClasses : commandsNamedBy(argv)) cli.register(command);
  return cli;
}

/**
 * The commands whose path starts with the first word typed (`history` names `history` and `history
 * show`); none for `--version`; every command when none does (`--help`, a typo to guess at) or for
 * `help`, which lists them.
 */
function commandsNamedBy(argv: readonly string[]): CommandClass<RoleflowContext>[] {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return [];
  const named = commandClasses.filter((command) => command.paths?.some((path) => path[0] === argv[0] && path[0] !== 'help'));
  return named.length > 0 ? named : commandClasses;
}

/**
 * clipanion prints an option's value as `#0` (`--port #0`; arcanis/clipanion#173): usage text
 * names it instead (`--port PORT`), from the table below or, for a flag not in it, its name.
 */
class RoleflowCli extends Cli<RoleflowContext> {
  override usage(...args: Parameters<Cli<RoleflowContext>['usage']>): string {
    const text = withRequiredOptions(this, args[0], super.usage(...args));
    // `rollback --to` takes a record or a commit, `promote --to` a tenant.
    const rollback = pathOfCommand(args[0])?.[0] === 'rollback';
    return namePlaceholders(rollback ? text.replace(/--to #0/g, '--to ID|COMMIT') : text);
  }
}

/**
 * A command's `--help` lists every option below its usage line, which then shows none: the
 * options it cannot run without go on that line (`$ roleflow promote --from #0 --to #0 --report #0`).
 */
function withRequiredOptions(cli: Cli<RoleflowContext>, command: unknown, text: string): string {
  const path = pathOfCommand(command);
  if (path === undefined) return text;
  const { usage, required } = requiredOptionsOf(cli, path);
  return required.length === 0 ? text : text.replace(`${usage}\n`, `${usage} ${required.join(' ')}\n`);
}

/** The path of a command class or instance clipanion hands `usage`. */
function pathOfCommand(command: unknown): string[] | undefined {
  const paths = command as { paths?: string[][]; constructor?: { paths?: string[][] } } | null | undefined;
  return paths?.paths?.[0] ?? paths?.constructor?.paths?.[0];
}

/** The usage line (`roleflow promote`) and the options it cannot run without (`--from #0`) of the command at `path`. */
function requiredOptionsOf(cli: Cli<RoleflowContext>, path: readonly string[]): { usage: string; required: string[] } {
  const definition = cli.definitions().find((d) => d.path === ['roleflow', ...path].join(' '));
  return { usage: definition?.usage ?? '', required: definition?.options.filter((o) => o.required).map((o) => o.definition) ?? [] };
}

const VALUE_NAMES: Record<string, string> = {
  '--base-url': 'URL',
  '--ws-url': 'URL',
  '--config': 'FILE',
  '--out': 'FILE',
  '--data': 'FILE',
  '--baseline': 'FILE',
  '--flows-config': 'FILE',
  '--roles': 'DIR',
  '--flows': 'DIR',
  '--tenant': 'NAME',
  '--preview-tenant': 'NAME',
  '--base': 'REF',
  '--base-report': 'FILE',
  '--from': 'NAME',
  '--to': 'NAME',
  '--limit': 'N',
  '--notify': 'issue',
  '--report': 'FILE',
  '--target': 'NAME_OR_GLOB',
  '--allow': 'RULE',
  '--reporter': 'NAME[=FILE]',
  '--format': 'FORMAT',
  '--threshold': 'PERCENT',
  '--transport': 'https|ws',
  '--shard': 'I/N|auto',
  '--shard-total': 'N',
  '--timings': 'REPORT',
  '--tag': 'TAG',
  '--exclude-tag': 'TAG',
  '--failed-from': 'REPORT',
  '--only': 'errors',
  '--min-pass-rate': 'PERCENT',
  '--target-minutes': 'M',
  '--max-jobs': 'J',
  '--grep': 'REGEX',
  '--concurrency': 'N',
  '--repeat': 'N',
  '--seed': 'N',
  '--latency': 'MS',
  '--fail-rate': 'RATE',
  '--lost-rate': 'RATE',
  '--rate-limit': 'N',
};

/**
 * `--port #0` → `--port PORT`, `[--config #0]` → `[--config FILE]`; the rows of an options list
 * are padded again, so their descriptions still line up.
 */
export function namePlaceholders(text: string): string {
  if (!text.includes('#0')) return text;
  const named = text.replace(/(--[a-z][a-z-]*)((?:,-[a-zA-Z])?) #0/g, (_, flag: string, alias: string) => `${flag}${alias} ${VALUE_NAMES[flag] ?? flag.slice(2).toUpperCase()}`);
  const lines = named.split('\n');
  const row = /^( {2,})(-\S*(?: [^ ]+)*?)( {2,})(\S.*)$/;
  const visible = (t: string): number => t.replace(/\x1b\[[0-9;]*m/g, '').length;
  for (let start = 0; start < lines.length; ) {
    if (!row.test(lines[start]!)) {
      start++;
      continue;
    }
    let end = start;
    while (end < lines.length && row.test(lines[end]!)) end++;
    const rows = lines.slice(start, end).map((line) => row.exec(line)!);
    const width = Math.max(...rows.map((m) => visible(m[1]! + m[2]!)));
    rows.forEach((m, i) => {
      lines[start + i] = `${m[1]}${m[2]}${' '.repeat(width - visible(m[1]! + m[2]!) + 4)}${m[4]}`;
    });
    start = end;
  }
  return lines.join('\n');
}

/** Run the CLI with argv and a context; returns the exit code. Tests call this in-process. */
export async function main(argv: string[], context: RoleflowContext): Promise<number> {
  const flag = argv.includes('--no-color') ? false : argv.includes('--color') ? true : undefined;
  const colors = useColor(context.env, context.stdoutIsTTY, flag);
  return runCommand(buildCli({ colors }, argv), argv, context);
}

/** Parse, run, and clean up after one command of `cli`: usage errors as one line, the exit code of a failure. */
export async function runCommand(cli: Cli<RoleflowContext>, given: string[], context: RoleflowContext): Promise<number> {
  const argv = negativeValuesJoined(given);
  let command;
  try {
    command = cli.process(argv, context);
  } catch (error) {
    // One line on stderr, where clipanion would print its multi-line form on stdout.
    const line = isCommandNotFound(error)
      ? (missingRequiredOptions(cli, argv) ?? (await unknownCommand(error, argv)))
      : await withFlagGuess(cli, describeUsageError(error, commandPathOf(argv)), argv);
    // The line may quote what was typed: one line, its control characters escaped.
    context.stderr.write(`${escapeControls(redactAll(line, [...environmentSecrets(context.env), ...argvSecrets(argv)]))}\n`);
    return ExitCode.Error;
  }
  try {
    return await cli.run(command, context);
  } finally {
    await (command as Partial<RoleflowCommand>).cleanup?.();
  }
}

/**
 * `--threshold -10%` as `--threshold=-10%`: clipanion reads a word starting with `-` as a flag,
 * never as the value of the option before it, and says "Not enough arguments"; joined, the
 * command sees the negative value and says what is wrong with it. No roleflow flag is `-` and a digit.
 */
function negativeValuesJoined(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const next = argv[i + 1];
    if (word === '--') return [...out, ...argv.slice(i)];
    if (/^--[a-z][\w-]*$/.test(word) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${word}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}

/** The registered command path that `argv` starts with (the longest), for pointing at its --help. */
function commandPathOf(argv: readonly string[]): string[] | undefined {
  let best: string[] | undefined;
  for (const command of commandClasses) {
    for (const path of command.paths ?? []) {
      const matches = path.every((word, i) => argv[i] === word);
      if (matches && path.length > (best?.length ?? 0)) best = path;
    }
  }
  return best;
}

/**
 * clipanion reports a command typed without an option it requires as no command at all: say which
 * (`error: promote needs --report FILE (see roleflow promote --help)`). Undefined when `argv` is not
 * such a command.
 */
function missingRequiredOptions(cli: Cli<RoleflowContext>, argv: readonly string[]): string | undefined {
  const path = commandPathOf(argv);
  if (path === undefined) return undefined;
  const given = (flag: string) => argv.some((word) => word === flag || word.startsWith(`${flag}=`));
  const missing = requiredOptionsOf(cli, path).required.filter((d) => !d.split(/[ ,]/).some((name) => name.startsWith('-') && given(name)));
  if (missing.length === 0) return undefined;
  const named = namePlaceholders(missing.join('\n')).split('\n');
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)!}`;
  return `error: ${path.join(' ')} needs ${list} (see roleflow ${path.join(' ')} --help)`;
}

function isCommandNotFound(error: unknown): error is { candidates?: { usage: string }[] } {
  return /^Command not found/.test((error as { message?: string } | null)?.message ?? '');
}

/** `error: unknown command "plna" (did you mean "roleflow plan"?); …`, never echoing an option value. */
async function unknownCommand(error: { candidates?: { usage: string }[] }, argv: readonly string[]): Promise<string> {
  const firstOption = argv.findIndex((w) => w.startsWith('-'));
  const words = (firstOption === -1 ? argv : argv.slice(0, firstOption)).slice(0, 2);
  const paths = (error.candidates ?? []).map((c) => synopsisPath(c.usage)).filter((p) => p !== '');
  let guess: string | undefined;
  if (words.length > 0) {
    const { closest } = await import('./core/text/schema.js');
    // The whole path first (`report comapre` → `report compare`), then the first word alone.
    const both = words.length === 2 ? closest(words.join(' '), paths.filter((p) => p.includes(' '))) : undefined;
    const word = closest(words[0]!, paths.map((p) => p.split(' ')[0]!));
    guess = both ?? paths.find((p) => p.split(' ')[0] === word);
  }
  const typed = words.length > 0 ? ` "${words.join(' ')}"` : '';
  return `error: unknown command${typed}${guess ? ` (did you mean "roleflow ${guess}"?)` : ''}; roleflow --help lists the commands`;
}

/**
 * `error: Unsupported option name ("--prue") (did you mean "--prune"?) …`: a mistyped flag gets
 * the nearest option of the command, as a mistyped YAML key gets the nearest key.
 */
async function withFlagGuess(cli: Cli<RoleflowContext>, line: string, argv: readonly string[]): Promise<string> {
  const typed = /Unsupported option name \("(--?[^"]+)"\)/.exec(line)?.[1];
  if (typed === undefined) return line;
  const path = ['roleflow', ...(commandPathOf(argv) ?? [])].join(' ');
  const options = cli.definitions().find((d) => d.path === path)?.options ?? [];
  const flags = options.flatMap((o) => o.definition.split(/[ ,]/).filter((w) => w.startsWith('--')));
  const { closest } = await import('./core/text/schema.js');
  const guess = closest(typed.replace(/=.*$/, ''), flags);
  return guess === undefined ? line : line.replace(`("${typed}")`, `("${typed}") (did you mean "${guess}"?)`);
}

/** `roleflow report merge [--out #0] <FILE> ...` → `report merge`. */
function synopsisPath(usage: string): string {
  const words: string[] = [];
  for (const word of usage.split(' ').slice(1)) {
    if (!/^[a-z][a-z-]*$/.test(word)) break;
    words.push(word);
  }
  return words.join(' ');
}

let cachedVersion: string | undefined;
export function version(): string {
  cachedVersion ??= packageVersion();
  return cachedVersion;
}
