import WebSocket from 'ws';
import type { RunningEmulator } from '../../src/emulator/index.js';

/** A message of the emulator's WebSocket, as sent (every member a string). */
export type Msg = Record<string, string>;

/** Open the emulator's WebSocket, with the token as a header (default), a query, or none. */
export function open(e: RunningEmulator, how: { header?: string; query?: string; path?: string } = { header: e.token }): Promise<WebSocket> {
  const url = new URL(e.wsUrl);
  if (how.path) url.pathname = how.path;
  if (how.query !== undefined) url.searchParams.set('token', how.query);
  const headers = how.header === undefined ? {} : { authorization: `Bearer ${how.header}` };
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Send one frame and gather the replies until `count` have come. */
export function exchange(ws: WebSocket, frame: unknown, count: number): Promise<Msg[]> {
  const replies = receive(ws, count);
  ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  return replies;
}

/** The next `count` messages (within 3 s). */
export function receive(ws: WebSocket, count: number): Promise<Msg[]> {
  const got: Msg[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${count} messages`)), 3000);
    const onMessage = (data: WebSocket.RawData): void => {
      got.push(JSON.parse(data.toString()) as Msg);
      if (got.length < count) return;
      clearTimeout(timer);
      ws.off('message', onMessage);
      resolve(got);
    };
    ws.on('message', onMessage);
  });
}

