import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { bearerToken } from './auth-and-faults.js';
import { checkInputs } from './flow-routes.js';
import { nodeOutputs, startExecution, stepStatus, type Execution } from './flow-run.js';
import type { CompiledFlow } from './flows-config.js';
import { MISSING_PARAMETERS } from './http-kit.js';
import type { RoleLookup } from './store/role-refs.js';

export type WsMessages = 'per-node' | 'final';

export interface WsOptions {
  tokenMatches: (candidate: string | undefined) => boolean;
  flows: () => ReadonlyMap<string, CompiledFlow>;
  /** The tenant's Roles, read when an execution starts. */
  roles: RoleLookup;
  messages: WsMessages;
  maxPayload: number;
}

interface Connection {
  ws: WebSocket;
  id: string;
  timers: Set<NodeJS.Timeout>;
}

export interface WsEndpoint {
  /** For the HTTP server's `upgrade` event. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * The WebSocket endpoint at `/ws`. The token comes in an `Authorization: Bearer` header or a
 * `?token=` query; a refused upgrade is a bare HTTP 403, as the interface says.
 */
export function createWsEndpoint(options: WsOptions): WsEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  const connections = new Set<Connection>();

  const serve = (ws: WebSocket): void => {
    const conn: Connection = { ws, id: randomUUID(), timers: new Set() };
    connections.add(conn);
    ws.on('message', (data) => onFrame(conn, data, options));
    ws.on('error', () => {});
    ws.on('close', () => {
      stop(conn);
      connections.delete(conn);
    });
  };

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => {});
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      if ((q === -1 ? url : url.slice(0, q)) !== '/ws') return refuse(socket, '404 Not Found');
      const queryToken = q === -1 ? null : new URLSearchParams(url.slice(q + 1)).get('token');
      const allowed =
        options.tokenMatches(bearerToken(req.headers.authorization)) || options.tokenMatches(queryToken ?? undefined);
      if (!allowed) return refuse(socket, '403 Forbidden');
      wss.handleUpgrade(req, socket, head, serve);
    },
    close() {
      for (const conn of connections) {
        stop(conn);
        conn.ws.terminate();
      }
      connections.clear();
      wss.close();
    },
  };
}

function onFrame(conn: Connection, data: RawData, options: WsOptions): void {
  let frame: unknown;
  try {
    frame = JSON.parse(data.toString());
  } catch {
    return reject(conn, '400', '', 'malformed message: not JSON');
  }
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
    return reject(conn, '400', '', 'malformed message: expected a JSON object');
  }
  const { action, service, ...rest } = frame as Record<string, unknown>;
  const name = typeof service === 'string' ? service : '';
  if (action !== 'message') return reject(conn, '400', name, 'unsupported action: expected "message"');
  if (name === '') return reject(conn, '400', '', `${MISSING_PARAMETERS}: service`);
  const flow = options.flows().get(name);
  if (!flow) return reject(conn, '404', name, `flow not found: ${name}`);
  const checked = checkInputs(flow, rest);
  if ('problem' in checked) return reject(conn, '400', name, checked.problem);

  send(conn, { state: 'ack', statusCode: '200', service: name, message: 'request received and is being processed' });
  const execution = startExecution(flow, checked.inputs, options.roles);
  const last = execution.ran.length - 1;
  execution.ran.forEach((step, i) => {
    if (options.messages === 'final' && i !== last) return;
    const timer = setTimeout(() => {
      conn.timers.delete(timer);
      completed(conn, execution, i);
    }, step.endsAtMs).unref();
    conn.timers.add(timer);
  });
}

// A failed node is reported as a completed message with statusCode "500" and an `error` member
// (first, so that a reader that shortens the text still sees why).
function completed(conn: Connection, execution: Execution, index: number): void {
  const ok = stepStatus(execution, index) === 'completed';
  const step = execution.ran[index]!;
  const payload = ok ? { outputs: nodeOutputs(execution, index) } : { error: execution.error, outputs: nodeOutputs(execution, index) };
  send(conn, {
    state: 'completed',
    statusCode: ok ? '200' : '500',
    service: execution.flow.name,
    message: JSON.stringify(payload),
    inputsValues: JSON.stringify({ inputsValues: execution.inputs }),
    nodeId: step.nodeId,
  });
}

// Request-level problems (bad frame, unknown flow) have their own state "error"; the interface shows none.
function reject(conn: Connection, statusCode: string, service: string, text: string): void {
  send(conn, { state: 'error', statusCode, service, message: text });
}

interface Outgoing {
  state: string;
  statusCode: string;
  service: string;
  message: string;
  /** Default `"{}"`, as in an ack. */
  inputsValues?: string;
  /** Default `""`, as in an ack. */
  nodeId?: string;
}

function send(conn: Connection, m: Outgoing): void {
  if (conn.ws.readyState !== WebSocket.OPEN) return;
  conn.ws.send(
    JSON.stringify({
      action: 'message',
      state: m.state,
      statusCode: m.statusCode,
      service_type: 'customflow',
      service: m.service,
      connectionId: conn.id,
      messageId: randomUUID(),
      message: m.message,
      inputsValues: m.inputsValues ?? '{}',
      nodeId: m.nodeId ?? '',
    }),
  );
}

function stop(conn: Connection): void {
  for (const timer of conn.timers) clearTimeout(timer);
  conn.timers.clear();
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
