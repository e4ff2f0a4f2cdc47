import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A tenant on 127.0.0.1 that answers too much: what the emulator never does. Over HTTP it lists
 * one Role (a chunked body of about `roleBytes` bytes), starts any flow, and logs `logSteps` completed steps
 * for every execution. Over WebSocket it acks each start, then sends `messages` completed messages
 * as fast as the socket drains (`Infinity`: until the client goes), each carrying `padding` bytes.
 */
export interface HostileOptions {
  roleBytes?: number;
  logSteps?: number;
  messages?: number;
  padding?: number;
}

export interface HostileTenant {
  baseUrl: string;
  wsUrl: string;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Completed messages sent over every connection. */
  sent(): number;
}

export async function hostileTenant(opts: HostileOptions = {}): Promise<HostileTenant> {
  const requests: string[] = [];
  let sent = 0;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => answer(req, res, opts));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) =>
    ws.once('message', () => {
      ws.send(JSON.stringify({ action: 'message', state: 'ack', statusCode: '200', service: 'flood', message: '' }));
      stream(ws, opts.messages ?? Infinity, opts.padding ?? 0, () => sent++);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onTestFinished(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/ws`, requests, sent: () => sent };
}

function answer(req: IncomingMessage, res: ServerResponse, opts: HostileOptions): void {
  const json = (body: string): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
  if (req.url?.startsWith('/admin/roles/get')) {
    const bytes = opts.roleBytes ?? 0;
    const content = 'x'.repeat(Math.max(0, bytes - 200));
    // Chunked, with no Content-Length: only counting what comes finds it too large.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(JSON.stringify(bytes === 0 ? [] : [{ id: 'r1', name: 'big', description: '', content, last_updated: '2024-01-01T00:00:00Z' }]));
    res.end();
    return;
  }
  if (req.url?.startsWith('/flow/')) return json(JSON.stringify({ flowId: 'f1', executionId: `e${Date.now()}` }));
  if (req.url === '/admin/stats') {
    const steps = Array.from({ length: opts.logSteps ?? 1 }, (_, i) => ({ count: String(i + 1), service: `s${i + 1}`, status: 'completed', latency: { milliseconds: 1 } }));
    return json(JSON.stringify(steps));
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"message":"not found"}');
}

/** `count` completed messages, written whenever the socket has drained, until the count or the socket's end. */
function stream(ws: WebSocket, count: number, padding: number, onSent: () => void): void {
  const pad = 'p'.repeat(padding);
  let i = 0;
  const pump = (): void => {
    while (i < count && ws.readyState === ws.OPEN && ws.bufferedAmount < 1 << 20) {
      i++;
      const message = JSON.stringify({ outputs: { results: [{ n: i, pad }] } });
      ws.send(JSON.stringify({ action: 'message', state: 'completed', statusCode: '200', service: 'flood', message, nodeId: `node-${i}`, messageId: `m${i}` }));
      onSent();
    }
    if (i < count && ws.readyState === ws.OPEN) setTimeout(pump, 1);
  };
  pump();
}
