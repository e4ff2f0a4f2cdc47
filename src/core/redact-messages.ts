import { RoleflowError } from './errors.js';
import { MASK, makeRedactor } from './text/redact.js';
import { escapeControls } from './text/safe-text.js';

/**
 * `text` with every form of each secret masked (`makeRedactor`), and any `Bearer <credential>`
 * masked too, so a token that reaches a message by a route we did not foresee (a library error
 * quoting a header) is still hidden.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return makeRedactor(secrets).text(text).replace(/\b(Bearer\s+)(?!\*\*\*)[^\s"',;]+/gi, `$1${MASK}`);
}

/**
 * Any thrown value as a RoleflowError whose message, and every message down its `cause` chain,
 * is free of the secrets. The chain is rebuilt from fresh errors because a stack trace repeats
 * its message and library errors may carry request options (headers) as properties.
 */
export function cleanError(error: unknown, secrets: readonly (string | undefined)[]): RoleflowError {
  if (error instanceof RoleflowError && isClean(error, secrets)) return error;
  const message = redactSecrets(oneLine(messageOf(error)), secrets);
  const cause = error instanceof Error ? cleanCause(error.cause, secrets, 5) : undefined;
  // The kind of failure survives the cleaning (a subclass does not: its code says it all).
  const code = error instanceof RoleflowError ? error.code : undefined;
  return new RoleflowError(message, code, cause === undefined ? undefined : { cause });
}

function cleanCause(cause: unknown, secrets: readonly (string | undefined)[], depth: number): unknown {
  if (cause === undefined || depth === 0) return undefined;
  const copy = new Error(redactSecrets(messageOf(cause), secrets), {
    cause: cause instanceof Error ? cleanCause(cause.cause, secrets, depth - 1) : undefined,
  });
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}

function isClean(error: Error, secrets: readonly (string | undefined)[]): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 6; depth++) {
    const text = `${messageOf(e)}\n${e instanceof Error ? (e.stack ?? '') : ''}`;
    if (redactSecrets(text, secrets) !== text) return false;
    e = e instanceof Error ? e.cause : undefined;
  }
  return true;
}

/** The message of anything thrown (an Error's message, else the value as text). */
export function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  return typeof value === 'string' ? value : String(value);
}

/**
 * Errors are printed as one line: a multi-line library message or a tenant's error body is
 * folded, its control characters escaped (`escapeControls`), and cut to `max` characters.
 */
export function oneLine(text: string, max = 300): string {
  const folded = escapeControls(text.replace(/\s+/g, ' ').trim());
  if (folded.length <= max) return folded;
  // Not inside an escape, nor between the halves of a surrogate pair.
  const cut = folded.slice(0, max - 1).replace(/\\(u\{?[0-9a-f]*)?$/, '').replace(/[\uD800-\uDBFF]$/, '');
  return `${cut}…`;
}
