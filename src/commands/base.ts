import { Command, Option, type BaseContext } from 'clipanion';
import type { CommonOptions, Ports, PortsContext } from '../run/ports.js';
import { makePorts } from '../run/ports.js';
import { failure } from '../terminal/error-line.js';

/** What commands may use of the outside world; tests pass their own. Commands never touch `process`. */
export interface RoleflowContext extends BaseContext, PortsContext {}

/**
 * The one base of every command: the options all have, the ports its verb is called with (built
 * from the context), and the error mapping: a failure, a flag's validator included, is one line
 * on stderr and its exit code.
 */
export abstract class RoleflowCommand extends Command<RoleflowContext> {
  configFile = Option.String('--config', { description: 'Config file (default: ROLEFLOW_CONFIG, else roleflow.config.yaml here or in the nearest parent folder)' });
  verbose = Option.Boolean('--verbose', false, { description: 'One line per request on stderr; stack traces on errors' });
  color = Option.Boolean('--color', { description: 'Colours on a TTY; --no-color (or NO_COLOR) turns them off' });

  private made: ReturnType<typeof makePorts> | undefined;

  abstract override execute(): Promise<number>;

  /** clipanion's own `catch` would print on stdout, and an overriding `catch` exits 0. */
  override async validateAndExecute(): Promise<number> {
    try {
      return await super.validateAndExecute();
    } catch (error) {
      const { line, code } = failure(error, this.verbose, this.path);
      this.ports.output.err(line);
      return code;
    }
  }

  /** What this command's verb touches: its output (secrets masked), tenants, clock, Ctrl-C, terminal. */
  get ports(): Ports {
    return (this.made ??= makePorts(this.context, { color: this.color, verbose: this.verbose })).ports;
  }

  /** The options of every verb. */
  get common(): CommonOptions {
    return { config: this.configFile, verbose: this.verbose };
  }

  /** Called by `main()` once the command has ended, however it ended: closes the tenants left open. */
  async cleanup(): Promise<void> {
    await this.made?.close();
  }
}
