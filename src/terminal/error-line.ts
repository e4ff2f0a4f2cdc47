import { InvalidFilesError, RoleflowError, formatIssue } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { escapeControls } from '../core/text/safe-text.js';

/** One line per problem; a stack trace only with --verbose and only for unexpected errors. */
export function describeError(error: unknown, verbose: boolean, commandPath?: readonly string[]): string {
  if (error instanceof InvalidFilesError) return error.issues.map(formatIssue).join('\n');
  // One line: a message quoting a config value or a tenant's answer cannot add a line of its own.
  if (error instanceof RoleflowError) return `error: ${escapeControls(error.message)}`;
  if (isUsageError(error)) return describeUsageError(error, commandPath);
  const message = error instanceof Error ? error.message || error.name : String(error);
  // One prefix, `error:`, whatever threw: a plain Error's stack would add `Error:` after it.
  if (verbose && error instanceof Error && error.stack) return `error: ${error.stack.replace(/^Error: /, '')}`;
  return `error: ${escapeControls(message.split('\n')[0]!)} (internal error; run with --verbose for details)`;
}

export function isUsageError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'UsageError' || (error as { clipanion?: unknown } | null)?.clipanion !== undefined;
}

/**
 * A clipanion usage error as one line pointing at the right `--help`, instead of its multi-line
 * form (which lists every command's synopsis and echoes the whole command line, secrets included).
 * An unknown command is worded by `main()`, which can afford to look for the one meant.
 */
export function describeUsageError(error: unknown, commandPath: readonly string[] | undefined): string {
  const message = (error as { message?: string } | null)?.message ?? String(error);
  const first = message.split('\n')[0]!.trim().replace(/[.:;]$/, '');
  if (first.startsWith('Command not found')) return 'error: unknown command; roleflow --help lists the commands';
  return `error: ${escapeControls(first)} (see ${['roleflow', ...(commandPath ?? []), '--help'].join(' ')})`;
}

/** A command's failure: its line for stderr and its exit code. */
export function failure(error: unknown, verbose: boolean, commandPath?: readonly string[]): { line: string; code: number } {
  return { line: describeError(error, verbose, commandPath), code: error instanceof RoleflowError ? error.exitCode : ExitCode.Error };
}
