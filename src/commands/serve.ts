import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { DEV_TOKEN } from '../run/serve.js';
import { RoleflowCommand } from './base.js';
import { jsonOption, numberOption, numberOptionOr } from './options.js';

export class ServeCommand extends RoleflowCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    category: 'Embedded tenant',
    description: 'Run the embedded tenant: a faithful emulator of the whole service interface',
    details: `
      Serves every endpoint of the interface (Roles, flow start, execution logs, WebSocket) on
      127.0.0.1 by default, with simulated flows from a YAML file: \`--flows-config\`, else
      \`local.flows_config\` of the config file, else the built-in \`emulator-flows.yaml\`. Prints the
      base and WebSocket URLs on stdout (\`--json\`: one JSON line); \`--port 0\` picks a free port.
      Stops cleanly on Ctrl-C or SIGTERM, writing the data file first.

      The accepted bearer token is \`--token\`, else \`ROLEFLOW_TOKEN\`, else the development token
      \`${DEV_TOKEN}\`; a token from the flag or the environment is never printed. Without
      \`--data\` the Roles live in memory; with \`--data FILE\` they are loaded from FILE (a missing
      file is an empty tenant); each change is appended to FILE.log before it is answered, and the
      log is folded into FILE by atomic writes, so even a killed server keeps every answered change. A FILE that is not a list of Roles stops the
      start with one line naming it, and is left untouched.

      Fault injection for testing clients: \`--latency MS\` delays every answer, \`--fail-rate R\`
      answers that share of requests 500 or 503 (with \`Retry-After: 0\`) before doing anything,
      \`--lost-rate R\` carries out that share of Role changes and then cuts the connection without
      an answer, and \`--rate-limit N\` answers requests beyond N a second 429 with \`Retry-After\`
      in whole seconds (a token bucket holding a second's worth; a refused request takes none).
      \`--seed\` makes the faults repeatable. \`--verbose\` prints one line per request on stderr
      (method, path, status, duration; a lost answer shows status 0).

      The embedded tenant that commands use when no tenant is configured is this same emulator,
      run in-process with its state in \`.roleflow/local.json\`. See src/emulator/README.md for its
      answers where the interface says "not shown".
    `,
    examples: [
      ['Serve on a free port', 'roleflow serve --port 0'],
      ['Point roleflow at it from another shell', 'ROLEFLOW_TOKEN=roleflow-dev-token roleflow plan --base-url http://127.0.0.1:8787'],
      ['Persist state and use your own flows', 'roleflow serve --data .roleflow/dev.json --flows-config my-flows.yaml'],
      ['A flaky tenant for retry testing, with request lines', 'roleflow serve --latency 20 --fail-rate 0.2 --lost-rate 0.1 --seed 7 --verbose'],
      ['A tenant that allows 20 requests a second', 'roleflow serve --latency 50 --rate-limit 20'],
    ],
  });

  port = numberOptionOr('--port', '8787', 'Port (0 = a free one)', { min: 0, max: 65535, integer: true });
  host = Option.String('--host', '127.0.0.1', { description: 'Address to listen on (clients send a token over plain http only to loopback)' });
  data = Option.String('--data', { description: 'Load and persist Roles in this JSON file' });
  token = Option.String('--token', { description: 'Accepted bearer token (default: $ROLEFLOW_TOKEN, else the development token)' });
  flowsConfig = Option.String('--flows-config', { description: 'Simulated flows YAML file (default: local.flows_config, else the built-in one)' });
  latency = numberOptionOr('--latency', '0', 'Added latency per answer, in ms (at most 1 h)', { min: 0, max: 3_600_000 });
  failRate = numberOptionOr('--fail-rate', '0', 'Share of answers that fail with 500/503 (0..1)', { min: 0, max: 1 });
  lostRate = numberOptionOr('--lost-rate', '0', 'Share of Role changes whose answer is lost (0..1)', { min: 0, max: 1 });
  rateLimit = numberOption('--rate-limit', 'Requests a second it answers; more get 429 with Retry-After', { min: 0.001, max: 1_000_000 });
  seed = Option.String('--seed', { description: 'Seed for fault injection', validator: t.isNumber() });
  json = jsonOption('Print the URLs as one JSON line');

  async execute(): Promise<number> {
    const { serve } = await import('../run/serve.js');
    const { port, host, data, token, flowsConfig, latency, failRate, lostRate, rateLimit, seed, json } = this;
    return serve({ ...this.common, port, host, data, token, flowsConfig, latency, failRate, lostRate, rateLimit, seed, json }, this.ports);
  }
}
