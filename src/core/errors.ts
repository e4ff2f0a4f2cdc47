import { ExitCode } from './exit-codes.js';
import { formatIssue, type Issue } from './text/issues.js';

// Located problems are text's (core/text/issues.ts); here with the errors, where most look for them.
export { formatIssue, type Issue, type Position, type Result } from './text/issues.js';

/**
 * What kind of failure an error is: stable, so decisions (stop a run, the exit code) never read
 * a message's wording.
 * - `failed`: the command ran and could not do what was asked (the default).
 * - `usage`: flags or arguments that do not fit together.
 * - `config`: the config file or a tenant URL is wrong (or would send the token in clear).
 * - `invalid_files`: role files, flow tests or a saved plan that cannot be read as such.
 * - `unreachable`: the tenant could not be reached at all (refused, DNS, TLS): nothing was sent.
 * - `unauthorized`: the tenant refused the token (401, 403).
 * - `no_answer`: a request was sent and no answer came (timeout, connection lost).
 * - `tenant_error`: the tenant answered with an error status or an answer roleflow cannot read.
 * - `tenant_refused`: the tenant refused the request as sent (a 4xx such as 400, 413 or 422): sent
 *   again, it gets the same answer; the request, not the moment, has to change.
 * - `outcome_unknown`: a create was sent and whether the tenant carried it out is not known.
 * - `too_large`: an answer or an execution went past a configured limit (`limits:`): sent again,
 *   it would be as large, so it is never retried.
 * - `guard`: refused by a guard (stale or altered saved plan, protect, max_deletes, empty prune).
 */
export type ErrorCode =
  | 'failed'
  | 'usage'
  | 'config'
  | 'invalid_files'
  | 'unreachable'
  | 'unauthorized'
  | 'no_answer'
  | 'tenant_error'
  | 'tenant_refused'
  | 'outcome_unknown'
  | 'too_large'
  | 'guard';

/** The exit code of each kind of failure: the one place that maps them (PRODUCT.md's table). */
export function exitCodeOf(code: ErrorCode): ExitCode {
  return code === 'guard' ? ExitCode.Refused : ExitCode.Error;
}

/**
 * An expected failure: the command ran and must end with the exit code of its `code`.
 * The message is one line a user can act on; it is printed without a stack trace.
 */
export class RoleflowError extends Error {
  override readonly name = 'RoleflowError';
  constructor(
    message: string,
    readonly code: ErrorCode = 'failed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): ExitCode {
    return exitCodeOf(this.code);
  }
}

/** Invalid input files: every issue is printed as `file:line:col: message`. */
export class InvalidFilesError extends RoleflowError {
  constructor(readonly issues: readonly Issue[]) {
    super(
      issues.length === 1
        ? formatIssue(issues[0]!)
        : `${issues.length} problems:\n${issues.map(formatIssue).join('\n')}`,
      'invalid_files',
    );
  }
}
