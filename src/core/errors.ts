import { ExitCode } from './exit-codes.js';
import { escapeControls } from './safe-text.js';

/** A 1-based position in a file. */
export interface Position {
  line: number;
  col: number;
}

/** A problem located in a file (1-based line and column). */
export interface Issue {
  file: string;
  line: number;
  col: number;
  message: string;
}

/** `file:line:col: message`, one line: a message quoting the file's text has its control characters escaped. */
export function formatIssue(issue: Issue): string {
  return `${escapeControls(issue.file)}:${issue.line}:${issue.col}: ${escapeControls(issue.message)}`;
}

/**
 * An expected failure: the command ran and must end with `exitCode`.
 * The message is one line a user can act on; it is printed without a stack trace.
 */
export class RoleflowError extends Error {
  override readonly name = 'RoleflowError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Error,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Invalid input files: every issue is printed as `file:line:col: message`. */
export class InvalidFilesError extends RoleflowError {
  constructor(readonly issues: readonly Issue[]) {
    super(
      issues.length === 1
        ? formatIssue(issues[0]!)
        : `${issues.length} problems:\n${issues.map(formatIssue).join('\n')}`,
      ExitCode.Error,
    );
  }
}

/** Validation as data: commands decide what a failure means. */
export type Result<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };
