import { Command, Option, type BaseContext } from 'clipanion';
import type { Config } from '../core/config.js';
import { InvalidFilesError, RoleflowError, formatIssue } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';

/** What commands may use of the outside world; tests pass their own. Commands never touch `process`. */
export interface RoleflowContext extends BaseContext {
  cwd: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * Resolves when the user asks the process to stop (SIGINT/SIGTERM). Only long-running commands
   * call it, so every other command keeps the default Ctrl-C behaviour.
   */
  waitForShutdown(): Promise<void>;
}

/**
 * Options every command has, the error handling, and output helpers that redact secrets.
 * clipanion's own `catch` would print to stdout and exit 0; ours prints one line to stderr and
 * records the exit code, which `main()` returns.
 */
export abstract class RoleflowCommand extends Command<RoleflowContext> {
  configFile = Option.String('--config', { description: 'Config file (default: roleflow.config.yaml when present)' });
  verbose = Option.Boolean('--verbose', false, { description: 'One line per request on stderr; stack traces on errors' });
  color = Option.Boolean('--color', { description: 'Colours on a TTY; --no-color (or NO_COLOR) turns them off' });

  /** Values redacted from everything this command prints. */
  protected readonly secrets: string[] = [];
  /** The exit code of a failure caught by `catch`. */
  failedWith: number | undefined;

  abstract override execute(): Promise<number>;

  override async catch(error: unknown): Promise<void> {
    this.failedWith = error instanceof RoleflowError ? error.exitCode : ExitCode.Error;
    this.err(describeError(error, this.verbose));
  }

  /** Colours only on a TTY, never with NO_COLOR or --no-color. */
  colorFor(stream: 'stdout' | 'stderr'): boolean {
    if (this.color === false) return false;
    const env = this.context.env;
    if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
    if (this.color === true) return true;
    if (env['TERM'] === 'dumb') return false;
    return stream === 'stdout' ? this.context.stdoutIsTTY : this.context.stderrIsTTY;
  }

  /** Write a result to stdout (secrets redacted). */
  out(text: string): void {
    this.context.stdout.write(ensureNewline(this.redact(text)));
  }

  /** Write a diagnostic to stderr (secrets redacted). */
  err(text: string): void {
    this.context.stderr.write(ensureNewline(this.redact(text)));
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (s.length > 0) out = out.split(s).join('***');
    return out;
  }

  async loadConfig(): Promise<Config> {
    const { loadConfig } = await import('../io/config.js');
    return loadConfig(this.context.cwd, this.configFile);
  }
}

/** A command that talks to a tenant. */
export abstract class TenantCommand extends RoleflowCommand {
  tenant = Option.String('--tenant', { description: 'Tenant name from the config (default: default_tenant, else the embedded "local")' });
  baseUrl = Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });
  wsUrl = Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

  async openTenant(config: Config): Promise<import('../io/tenant.js').OpenTenant> {
    const { openTenant } = await import('../io/tenant.js');
    // Secrets from the environment are redacted even before the tenant is open.
    for (const [key, value] of Object.entries(this.context.env)) {
      if (value && /TOKEN|SECRET|PASSWORD/i.test(key) && value.length >= 6) this.secrets.push(value);
    }
    const tenant = await openTenant({
      config,
      flags: { tenant: this.tenant, baseUrl: this.baseUrl, wsUrl: this.wsUrl },
      env: this.context.env,
      cwd: this.context.cwd,
      ...(this.verbose
        ? { onRequest: (r) => this.err(`${r.method} ${r.path} ${r.status} ${Math.round(r.ms)}ms${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}`) }
        : {}),
    });
    this.secrets.push(...tenant.secrets);
    return tenant;
  }
}

/** One line per problem; a stack trace only with --verbose and only for unexpected errors. */
export function describeError(error: unknown, verbose: boolean): string {
  if (error instanceof InvalidFilesError) return error.issues.map(formatIssue).join('\n');
  if (error instanceof RoleflowError) return `error: ${error.message}`;
  if (isUsageError(error)) return `error: ${(error as Error).message.split('\n')[0]}\nrun with --help for usage`;
  const message = error instanceof Error ? error.message : String(error);
  if (verbose && error instanceof Error && error.stack) return `error: ${error.stack}`;
  return `error: ${message.split('\n')[0]} (internal error; run with --verbose for details)`;
}

function isUsageError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'UsageError' || (error as { clipanion?: unknown } | null)?.clipanion !== undefined;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
