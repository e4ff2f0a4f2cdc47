import { resolve } from 'node:path';
import { configOf, ExitCode, requestLine, type CommonOptions, type Ports } from './ports.js';

/** The fixed token of a `serve` started without one: a development value, not a secret. */
export const DEV_TOKEN = 'roleflow-dev-token';

export interface ServeOptions extends CommonOptions {
  port: number;
  host: string;
  /** `--data FILE`: Roles loaded from and persisted in it. */
  data?: string | undefined;
  /** `--token`; else ROLEFLOW_TOKEN, else `DEV_TOKEN`. */
  token?: string | undefined;
  /** `--flows-config FILE`; else the config's local.flows_config, else the built-in flows. */
  flowsConfig?: string | undefined;
  latency: number;
  failRate: number;
  lostRate: number;
  /** `--rate-limit N`: requests a second it answers, more get 429. */
  rateLimit?: number | undefined;
  seed?: number | undefined;
  json: boolean;
}

/**
 * `roleflow serve`: the embedded tenant on a port until the user asks it to stop (Ctrl-C,
 * SIGTERM), its URLs printed; the data file is written before it ends.
 */
export async function serve(options: ServeOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  const fromEnv = ports.env['ROLEFLOW_TOKEN'];
  const token = options.token ?? (fromEnv || DEV_TOKEN);
  if (token !== DEV_TOKEN) output.addSecrets([token], options.token !== undefined ? '--token' : undefined);
  // Like every command, serve reads the config (a broken one is an error): its local.flows_config
  // is the default flows file, so `serve` runs the flows the in-process local tenant runs.
  const config = await configOf(options, ports);
  const { embeddedFlowsOf, ownFlowsNote } = await import('../files/config-file.js');
  const own = config.local.flowsConfig === undefined ? undefined : embeddedFlowsOf(ports.cwd, config);
  const flows = options.flowsConfig !== undefined ? resolve(ports.cwd, options.flowsConfig) : own?.abs;
  // --flows-config is asked for on the command line; the config's is said.
  if (options.flowsConfig === undefined && own !== undefined) output.err(ownFlowsNote(own.file));
  const { startEmulator } = await import('../emulator/index.js');
  const emulator = await startEmulator({
    host: options.host,
    port: options.port,
    token,
    latencyMs: options.latency,
    failRate: options.failRate,
    lostRate: options.lostRate,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: { perSecond: options.rateLimit } }),
    ...(options.data === undefined ? {} : { dataFile: resolve(ports.cwd, options.data) }),
    ...(flows === undefined ? {} : { flows }),
    ...(options.verbose === true ? { onRequest: (r) => output.err(requestLine({ ...r, status: r.status === 0 ? '0 (answer dropped)' : r.status })) } : {}),
    onDataFileError: (error) => output.err(`warning: ${error.message}; retrying`),
  });
  const auth = token === DEV_TOKEN ? `bearer token "${DEV_TOKEN}"` : `bearer token from ${options.token !== undefined ? '--token' : 'ROLEFLOW_TOKEN'}`;
  if (options.json) output.json({ format_version: 1, base_url: emulator.baseUrl, ws_url: emulator.wsUrl }, 0);
  else output.out(`roleflow serve: listening\n  base URL:      ${emulator.baseUrl}\n  WebSocket URL: ${emulator.wsUrl}\n  auth:          ${auth}`);
  await new Promise<void>((stop) => ports.interruption(stop));
  await emulator.close();
  return ExitCode.Ok;
}
