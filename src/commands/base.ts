import { setMaxListeners } from 'node:events';
import { Command, Option, type BaseContext } from 'clipanion';
import type { Config } from '../core/config.js';
import { InvalidFilesError, RoleflowError, formatIssue } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { environmentSecrets, makeRedactor, SHORT_SECRET_LENGTH, type Redactor } from '../core/redact.js';
import { escapeControls, escapeStray, jsonText } from '../core/safe-text.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import type { Style } from '../report/console.js';
import type { ReportSinks } from '../run/write-reports.js';
import { useColor } from '../terminal/color.js';

/** What commands may use of the outside world; tests pass their own. Commands never touch `process`. */
export interface RoleflowContext extends BaseContext {
  cwd: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * stdout is a pipe (`roleflow test | tee log`): what reads it may print to the terminal at any
   * time, so no progress line is drawn there that its output could land on.
   */
  stdoutIsPipe?: boolean;
  /**
   * Resolves when the user asks the process to stop (SIGINT/SIGTERM). Only long-running commands
   * call it, so every other command keeps the default Ctrl-C behaviour.
   */
  waitForShutdown(): Promise<void>;
}

/**
 * Options every command has, the error handling, and output helpers that redact secrets: `out`
 * and `err` mask them in text, `outJson` and `outData` in the values of data before it is
 * serialised (so that a secret which is a common word cannot break JSON or XML). `out` and `err`
 * also escape any control character left in the text (`escapeStray`) and wipe the live progress
 * line first, so nothing is printed onto it. clipanion's own `catch` would print to stdout and
 * exit 0; ours prints one line to stderr and returns the exit code (`validateAndExecute`).
 */
export abstract class RoleflowCommand extends Command<RoleflowContext> {
  configFile = Option.String('--config', { description: 'Config file (default: ROLEFLOW_CONFIG, else roleflow.config.yaml here or in the nearest parent folder)' });
  verbose = Option.Boolean('--verbose', false, { description: 'One line per request on stderr; stack traces on errors' });
  color = Option.Boolean('--color', { description: 'Colours on a TTY; --no-color (or NO_COLOR) turns them off' });

  /** Values redacted from everything this command prints (`addSecrets`). */
  private readonly secretValues = new Set<string>();
  private currentRedactor: Redactor | undefined;
  /** The progress line on the terminal, if one is shown (`showLiveLine`). */
  private liveLine: { clear(): void } | undefined;
  abstract override execute(): Promise<number>;

  /**
   * Every failure, a flag's validator included, ends here as one line on stderr and its exit
   * code: clipanion's own `catch` would print it on stdout, and an overriding `catch` exits 0.
   */
  override async validateAndExecute(): Promise<number> {
    try {
      return await super.validateAndExecute();
    } catch (error) {
      this.err(describeError(error, this.verbose, this.path));
      return error instanceof RoleflowError ? error.exitCode : ExitCode.Error;
    }
  }

  /** Called by `main()` once the command has ended, however it ended. */
  async cleanup(): Promise<void> {}

  /** Colours for a stream: see `useColor` (a TTY, `--color`/`--no-color`, NO_COLOR, FORCE_COLOR). */
  colorFor(stream: 'stdout' | 'stderr'): boolean {
    return useColor(this.context.env, stream === 'stdout' ? this.context.stdoutIsTTY : this.context.stderrIsTTY, this.color);
  }

  /** Write a result to stdout (secrets redacted, stray control characters escaped). */
  out(text: string): void {
    this.liveLine?.clear();
    this.context.stdout.write(ensureNewline(escapeStray(this.redact(text), this.colorFor('stdout'))));
  }

  /** Write `value` as JSON on stdout (`indent` 0: one line), secrets masked as `outData` does. */
  outJson(value: unknown, indent = 2): void {
    this.outData(value, (v) => jsonText(v, indent));
  }

  /**
   * Write machine-readable output to stdout: secrets are masked in the string values of `value`,
   * which `serialise` then renders (JSON, XML, workflow commands); the text is written as it is,
   * never masked again, so its keys and syntax stand whatever the secrets are. Empty output
   * writes nothing.
   */
  outData<T>(value: T, serialise: (value: T) => string): void {
    const text = serialise(this.redactor.values(value));
    this.liveLine?.clear();
    if (text !== '') this.context.stdout.write(ensureNewline(text));
  }

  /** Write a diagnostic to stderr (secrets redacted, stray control characters escaped). */
  err(text: string): void {
    this.liveLine?.clear();
    this.context.stderr.write(ensureNewline(escapeStray(this.redact(text), this.colorFor('stderr'))));
  }

  /** A live progress line may be drawn: stderr is a terminal, and stdout is not a pipe into it. */
  canShowProgress(): boolean {
    return this.context.stderrIsTTY && this.context.stdoutIsPipe !== true;
  }

  /**
   * A progress line now shown on the terminal (undefined: none): `out` and `err` clear it before
   * they write, whichever stream they write to, so a result or a warning never lands on it.
   */
  showLiveLine(line: { clear(): void } | undefined): void {
    this.liveLine = line;
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** Where `test` and `report merge` write their reports: this command's streams, masking and colours. */
  reportSinks(style: Style, consoleWasLive: boolean): ReportSinks {
    return {
      cwd: this.context.cwd,
      env: this.context.env,
      stdout: (text) => this.out(text),
      data: (value, render) => this.outData(value, render),
      style,
      consoleWasLive,
      redactor: this.redactor,
    };
  }

  /** The redactor of every secret added so far. */
  get redactor(): Redactor {
    return (this.currentRedactor ??= makeRedactor(this.secretValues));
  }

  /**
   * Redact these values from all this command prints from now on. A short one may also hide parts
   * of ordinary words: the user is told once, by the name of the variable (or flag) holding it.
   */
  addSecrets(values: Iterable<string | undefined>, flag?: string): void {
    for (const value of values) {
      if (!value || this.secretValues.has(value)) continue;
      this.secretValues.add(value);
      this.currentRedactor = undefined;
      if (value.length < SHORT_SECRET_LENGTH) {
        const name = flag ?? Object.keys(this.context.env).find((k) => this.context.env[k] === value) ?? 'a secret';
        this.err(`warning: ${name} is only ${value.length} characters; it is masked wherever it appears, which may mask ordinary words`);
      }
    }
  }

  async loadConfig(): Promise<Config> {
    const { loadConfig } = await import('../files/config-file.js');
    return loadConfig(this.context.cwd, this.configFile, this.context.env);
  }

  /**
   * The first SIGINT/SIGTERM as an AbortSignal, for a long-running command: once it is aborted,
   * nothing new starts and the command reports what was done. `onInterrupt` runs just before
   * (clear the progress line, say what happens now). A second signal ends the process at once.
   */
  protected interruption(onInterrupt: () => void): AbortSignal {
    const controller = new AbortController();
    // Every execution in flight listens (tens at once with --concurrency): not a leak to warn of.
    setMaxListeners(0, controller.signal);
    void this.context.waitForShutdown().then(() => {
      onInterrupt();
      controller.abort();
    });
    return controller.signal;
  }

  /** `--verbose`: the line of one request (the path has its query secrets masked already). */
  protected requestLine(r: { method: string; path: string; status: number | string; ms: number; attempt?: number }): void {
    if (!this.verbose) return;
    const again = r.attempt !== undefined && r.attempt > 1 ? ` (attempt ${r.attempt})` : '';
    this.err(`${r.method} ${r.path} ${r.status} ${Math.round(r.ms)}ms${again}`);
  }
}

/** A command that talks to a tenant. */
export abstract class TenantCommand extends RoleflowCommand {
  tenant = Option.String('--tenant', { description: 'Tenant name from the config (default: ROLEFLOW_TENANT, else default_tenant, else the embedded "local")' });
  baseUrl = Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });
  wsUrl = Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

  /** Tenants opened and not yet closed: closed by `cleanup` so that no failure leaves one running. */
  private readonly opened = new Set<OpenTenant>();

  async openTenant(config: Config): Promise<OpenTenant> {
    const { openTenant } = await import('../tenant/open-tenant.js');
    // Secrets from the environment are redacted even before the tenant is open.
    this.addSecrets(environmentSecrets(this.context.env));
    const tenant = await openTenant({
      config,
      // Flags win over the environment, which wins over the config's default_tenant.
      flags: { tenant: this.tenant ?? (this.context.env['ROLEFLOW_TENANT'] || undefined), baseUrl: this.baseUrl, wsUrl: this.wsUrl },
      env: this.context.env,
      cwd: this.context.cwd,
      ...(this.verbose ? { onRequest: (r) => this.requestLine(r) } : {}),
      onRetry: (line) => this.err(line),
    });
    this.addSecrets(tenant.secrets);
    const close = tenant.close.bind(tenant);
    const tracked: OpenTenant = {
      ...tenant,
      close: async () => {
        this.opened.delete(tracked);
        await close();
      },
    };
    this.opened.add(tracked);
    return tracked;
  }

  // An embedded tenant left open would keep the process alive after the command has failed.
  override async cleanup(): Promise<void> {
    for (const tenant of [...this.opened]) await tenant.close().catch(() => undefined);
  }
}

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

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
