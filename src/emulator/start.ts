import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import type { Role } from '../core/model.js';
import { onFirstUse } from '../core/text/first-use.js';
import { packageRoot } from '../files/package-root.js';
import { createFaults, createRateLimit, tokenChecker } from './auth-and-faults.js';
import { loadDataFile, removeStaleTemps } from './store/data-file.js';
import { DataLog } from './store/data-log.js';
import { flowRoutes } from './flow-routes.js';
import { ExecutionStore, type LatencyForm } from './flow-run.js';
import { compileFlows, loadFlowsConfig, validateFlowsObject, type CompiledFlow, type FlowsConfig } from './flows-config.js';
import { RequestLog, type RequestRecord } from './http-kit.js';
import { createHttpHandler, type RequestLine } from './http-server.js';
import { roleRoutes, type UnknownIdStyle } from './role-routes.js';
import { RoleStore, type LastUpdateField, type RoleChange } from './store/role-store.js';
import type { WsEndpoint, WsMessages } from './ws-server.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  token?: string;
  dataFile?: string;
  flows?: string | FlowsConfig;
  latencyMs?: number;
  failRate?: number;
  lostRate?: number;
  /** At most this many HTTP requests a second (a token bucket holding a second's worth); more are answered 429 with Retry-After in seconds. */
  rateLimit?: { perSecond: number };
  seed?: number;
  disable?: string[];
  unknownId?: UnknownIdStyle;
  lastUpdateField?: LastUpdateField;
  latencyForm?: LatencyForm;
  wsMessages?: WsMessages;
  maxBodyBytes?: number;
  /** Told of every HTTP request once answered (`serve --verbose`); the path carries no query. */
  onRequest?: (line: RequestLine) => void;
  /** Told when the data file cannot be written (it is retried; `close()` rejects if it stays so). */
  onDataFileError?: (error: Error) => void;
  /** The change log is compacted into the data file past this size (default 4 MiB, or the data file's size if more). */
  dataLogCompactBytes?: number;
}

export interface RunningEmulator {
  baseUrl: string;
  wsUrl: string;
  token: string;
  /** Test hook: the stored Roles in creation order, in the `Role` shape of src/core/model.ts. */
  roles(): Role[];
  /** Test hook: the last 10,000 requests (status 0 = dropped on purpose by `lostRate`). */
  requests(): RequestRecord[];
  /** Stops listening, ends every connection and timer, then compacts the change log into the data file. */
  close(): Promise<void>;
}

/** Start the embedded tenant (see src/emulator/README.md for its choices where the interface is silent). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(options);
  // roleflow's own flows are read when a flow first starts (a run that manages Roles never reads
  // them); a file or flows given are checked before the tenant listens.
  const given = options.flows === undefined ? undefined : await readFlows(options.flows);
  const flows = given === undefined ? onFirstUse(builtInFlows) : () => given;
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenMatches = tokenChecker(token);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;

  let writer: DataLog | undefined;
  // Told of changes only when there is a data log to write (the store then serializes each at once).
  const onChange = options.dataFile === undefined ? undefined : (change: RoleChange) => writer?.append(change);
  const store = new RoleStore(options.lastUpdateField ?? 'last_updated', onChange);
  if (options.dataFile !== undefined) {
    const loaded = await loadDataFile(options.dataFile);
    store.restore(loaded.roles);
    await removeStaleTemps(options.dataFile);
    writer = new DataLog(options.dataFile, () => store.listJson(), options.onDataFileError, loaded, options.dataLogCompactBytes);
    // Compacted on start: the log a previous process left is folded into the data file.
    if (loaded.logBytes > 0) await writer.compact();
  }

  const roleByName = (name: string) => store.byName(name);
  const log = new RequestLog();
  const routes = [
    ...roleRoutes(store, options.unknownId ?? '404'),
    ...flowRoutes(flows, roleByName, new ExecutionStore(), options.latencyForm ?? 'parts'),
  ];
  const faults = createFaults(options.failRate, options.lostRate, options.seed);
  const handler = createHttpHandler({
    routes,
    disable: options.disable ?? [],
    tokenMatches,
    faults,
    rateLimit: options.rateLimit === undefined ? undefined : createRateLimit(options.rateLimit.perSecond),
    latencyMs: options.latencyMs ?? 0,
    maxBodyBytes,
    log,
    onRequest: options.onRequest,
  });
  // The WebSocket endpoint (and ws) is loaded by the first upgrade: most runs never open one.
  let ws: Promise<WsEndpoint> | undefined;
  let closing: Promise<void> | undefined;
  const wsEndpoint = (): Promise<WsEndpoint> =>
    (ws ??= import('./ws-server.js').then(({ createWsEndpoint }) =>
      createWsEndpoint({ tokenMatches, flows, roles: roleByName, messages: options.wsMessages ?? 'per-node', maxPayload: maxBodyBytes }),
    ));
  const server = createServer(handler);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    // Once closing, no endpoint is made that close() would not end.
    if (closing !== undefined) return void socket.destroy();
    void wsEndpoint().then((endpoint) => endpoint.upgrade(req, socket, head));
  });
  const host = options.host ?? '127.0.0.1';
  const { port } = await listen(server, host, options.port ?? 0);

  const urlHost = displayHost(host);
  return {
    baseUrl: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    token,
    roles: () => store.snapshot(),
    requests: () => log.list(),
    close: () =>
      (closing ??= (async () => {
        (await ws)?.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await writer?.close();
        if (writer?.error) throw writer.error;
      })()),
  };
}

/** The flows of emulator-flows.yaml, roleflow's own (its tests check it). */
function builtInFlows(): Map<string, CompiledFlow> {
  const file = `${packageRoot}emulator-flows.yaml`;
  return flowsOfText(readFileSync(file, 'utf8'), file);
}

/** The flows of a flows file's text; its problems are an error naming their lines. */
function flowsOfText(text: string, file: string): Map<string, CompiledFlow> {
  const loaded = loadFlowsConfig(text, file);
  if (!loaded.ok) throw new InvalidFilesError(loaded.issues);
  return compileFlows(loaded.value);
}

async function readFlows(source: string | FlowsConfig): Promise<Map<string, CompiledFlow>> {
  if (typeof source !== 'string') {
    const checked = validateFlowsObject(source, 'flows option');
    if (!checked.ok) throw new InvalidFilesError(checked.issues);
    return compileFlows(checked.value);
  }
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (err) {
    throw new RoleflowError(`emulator flows file ${source} cannot be read: ${(err as Error).message}`);
  }
  return flowsOfText(text, source);
}

function checkOptions(o: EmulatorOptions): void {
  const problems: string[] = [];
  for (const key of ['failRate', 'lostRate'] as const) {
    const v = o[key];
    if (v !== undefined && !(v >= 0 && v <= 1)) problems.push(`${key} must be between 0 and 1`);
  }
  // Past ~24.8 days a timer fires at once (with a warning): an hour is more than any test wants.
  if (o.latencyMs !== undefined && !(o.latencyMs >= 0 && o.latencyMs <= 3_600_000)) problems.push('latencyMs must be from 0 to 3600000 (1 h)');
  const perSecond = o.rateLimit?.perSecond;
  if (o.rateLimit !== undefined && !(typeof perSecond === 'number' && perSecond > 0 && perSecond <= 1_000_000)) problems.push('rateLimit.perSecond must be more than 0 (at most 1000000)');
  if (o.maxBodyBytes !== undefined && !(o.maxBodyBytes > 0)) problems.push('maxBodyBytes must be more than 0');
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) {
    problems.push('port must be an integer from 0 to 65535');
  }
  if (o.token !== undefined && o.token === '') problems.push('token must not be empty');
  if (problems.length > 0) throw new RoleflowError(`emulator: ${problems.join('; ')}`);
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new RoleflowError(`emulator cannot listen on ${host}:${port}: ${err.code ?? err.message}`)),
    );
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

// A wildcard address is where the server listens, not where a client connects.
function displayHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
