import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { RoleflowCommand } from './base.js';

/** The fixed token of a `serve` started without one: a development value, not a secret. */
export const DEV_TOKEN = 'roleflow-dev-token';

export class ServeCommand extends RoleflowCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Embedded tenant',
    description: 'Run the embedded tenant: a faithful emulator of the whole service interface',
    details: `
      Serves every endpoint of the interface over HTTP and WebSocket on loopback, with simulated flows
      from a YAML file (default: the built-in \`emulator-flows.yaml\`). Prints the base and WebSocket
      URLs on stdout; \`--port 0\` picks a free port. Stops on Ctrl-C.

      The bearer token is \`--token\`, else \`ROLEFLOW_TOKEN\`, else the development token
      \`${DEV_TOKEN}\`. With \`--data FILE\` the Roles persist across restarts (atomic writes).

      Fault injection for testing clients: \`--latency\` adds delay to every answer, \`--fail-rate\`
      answers 500/503 before doing anything, \`--lost-rate\` makes a change and then cuts the connection.
    `,
    examples: [
      ['Serve on a free port', 'roleflow serve --port 0'],
      ['Persist state and use your own flows', 'roleflow serve --data .roleflow/dev.json --flows-config my-flows.yaml'],
      ['A flaky tenant for retry testing', 'roleflow serve --latency 20 --fail-rate 0.2 --lost-rate 0.1'],
    ],
  });

  port = Option.String('--port', '8787', { description: 'Port (0 = a free one)', validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]) });
  host = Option.String('--host', '127.0.0.1', { description: 'Address to listen on' });
  data = Option.String('--data', { description: 'Persist Roles to this JSON file' });
  token = Option.String('--token', { description: 'Accepted bearer token (default: $ROLEFLOW_TOKEN, else the development token)' });
  flowsConfig = Option.String('--flows-config', { description: 'Simulated flows YAML file' });
  latency = Option.String('--latency', '0', { description: 'Added latency per answer, in ms', validator: t.cascade(t.isNumber(), [t.isAtLeast(0)]) });
  failRate = Option.String('--fail-rate', '0', { description: 'Share of answers that fail with 500/503 (0..1)', validator: t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)]) });
  lostRate = Option.String('--lost-rate', '0', { description: 'Share of changes whose answer is lost (0..1)', validator: t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)]) });
  seed = Option.String('--seed', { description: 'Seed for fault injection', validator: t.isNumber() });
  json = Option.Boolean('--json', false, { description: 'Print the URLs as one JSON line' });

  async execute(): Promise<number> {
    const { startEmulator } = await import('../emulator/index.js');
    const { resolve } = await import('node:path');
    const fromEnv = this.context.env['ROLEFLOW_TOKEN'];
    const token = this.token ?? (fromEnv || DEV_TOKEN);
    if (token !== DEV_TOKEN) this.secrets.push(token);
    const emulator = await startEmulator({
      host: this.host,
      port: this.port,
      token,
      latencyMs: this.latency,
      failRate: this.failRate,
      lostRate: this.lostRate,
      ...(this.seed === undefined ? {} : { seed: this.seed }),
      ...(this.data === undefined ? {} : { dataFile: resolve(this.context.cwd, this.data) }),
      ...(this.flowsConfig === undefined ? {} : { flows: resolve(this.context.cwd, this.flowsConfig) }),
    });
    const auth = token === DEV_TOKEN ? `bearer token "${DEV_TOKEN}"` : `bearer token from ${this.token ? '--token' : 'ROLEFLOW_TOKEN'}`;
    if (this.json) this.out(JSON.stringify({ base_url: emulator.baseUrl, ws_url: emulator.wsUrl }));
    else this.out(`roleflow serve: listening\n  base URL:      ${emulator.baseUrl}\n  WebSocket URL: ${emulator.wsUrl}\n  auth:          ${auth}`);
    await this.context.waitForShutdown();
    await emulator.close();
    return 0;
  }
}
