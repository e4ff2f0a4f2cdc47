import { Command, Option, type BaseContext } from 'clipanion';
import type { Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import type { Style } from '../report/console.js';
import type { ReportSinks } from '../run/write-reports.js';
import { useColor } from '../terminal/color.js';
import { CommandOutput } from '../terminal/output.js';
import { describeError } from './error-line.js';
import { escapeControls } from '../core/safe-text.js';
import type { FileIdentity } from '../files/work-tree.js';

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
  /** stdout is redirected to a regular file (`roleflow test --json > report.json`): which one. */
  stdoutFile?: FileIdentity;
  /**
   * Resolves when the user asks the process to stop (SIGINT/SIGTERM). Only long-running commands
   * call it, so every other command keeps the default Ctrl-C behaviour.
   */
  waitForShutdown(): Promise<void>;
}

/**
 * The options every command has and the error mapping: a failure, a flag's validator included,
 * is one line on stderr and its exit code. What a command prints goes through `io`, which masks
 * secrets and escapes control characters (see `CommandOutput`).
 */
export abstract class RoleflowCommand extends Command<RoleflowContext> {
  configFile = Option.String('--config', { description: 'Config file (default: ROLEFLOW_CONFIG, else roleflow.config.yaml here or in the nearest parent folder)' });
  verbose = Option.Boolean('--verbose', false, { description: 'One line per request on stderr; stack traces on errors' });
  color = Option.Boolean('--color', { description: 'Colours on a TTY; --no-color (or NO_COLOR) turns them off' });

  private output: CommandOutput | undefined;

  abstract override execute(): Promise<number>;

  /** clipanion's own `catch` would print on stdout, and an overriding `catch` exits 0. */
  override async validateAndExecute(): Promise<number> {
    try {
      return await super.validateAndExecute();
    } catch (error) {
      this.io.err(describeError(error, this.verbose, this.path));
      return error instanceof RoleflowError ? error.exitCode : ExitCode.Error;
    }
  }

  /** Called by `main()` once the command has ended, however it ended. */
  async cleanup(): Promise<void> {}

  /** This command's stdout and stderr, secrets masked. */
  get io(): CommandOutput {
    return (this.output ??= new CommandOutput(this.context, (stream) => this.colorFor(stream)));
  }

  /** Colours for a stream: see `useColor` (a TTY, `--color`/`--no-color`, NO_COLOR, FORCE_COLOR). */
  colorFor(stream: 'stdout' | 'stderr'): boolean {
    return useColor(this.context.env, stream === 'stdout' ? this.context.stdoutIsTTY : this.context.stderrIsTTY, this.color);
  }

  /** A live progress line may be drawn: stderr is a terminal, and stdout is not a pipe into it. */
  canShowProgress(): boolean {
    return this.context.stderrIsTTY && this.context.stdoutIsPipe !== true;
  }

  /** Where `test` and `report merge` write their reports: this command's streams, masking and colours. */
  reportSinks(style: Style, consoleWasLive: boolean): ReportSinks {
    return {
      cwd: this.context.cwd,
      env: this.context.env,
      stdout: (text) => this.io.out(text),
      data: (value, render) => this.io.outData(value, render),
      style,
      consoleWasLive,
      redactor: this.io.redactor,
    };
  }

  /**
   * `--verbose`: the line of one request (the path has its query secrets masked already), after
   * `tenant NAME:` in a run over several tenants.
   */
  protected requestLine(r: { method: string; path: string; status: number | string; ms: number; attempt?: number }, tenant?: string): void {
    if (!this.verbose) return;
    const again = r.attempt !== undefined && r.attempt > 1 ? ` (attempt ${r.attempt})` : '';
    this.io.err(`${tenant === undefined ? '' : `tenant ${escapeControls(tenant)}: `}${r.method} ${r.path} ${r.status} ${Math.round(r.ms)}ms${again}`);
  }

  async loadConfig(): Promise<Config> {
    const { loadConfig } = await import('../files/config-file.js');
    return loadConfig(this.context.cwd, this.configFile, this.context.env);
  }
}
