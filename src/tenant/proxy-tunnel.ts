import { Agent as HttpAgent, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { displayUrl } from '../core/text/printed-url.js';

/**
 * An agent for `ws` that opens each connection through `proxy` with CONNECT, then speaks TLS to
 * the tenant inside the tunnel when `secure` (wss). One connection per WebSocket, none kept.
 */
export function tunnelAgent(proxy: URL, secure: boolean): HttpAgent {
  const Base = secure ? HttpsAgent : HttpAgent;
  class Tunnel extends Base {
    // Node's Agent takes the socket from the callback when this returns nothing.
    override createConnection(request: ClientRequestArgs, callback?: (error: Error | null, socket: Duplex) => void): undefined {
      const options = request as ConnectionOptions & ClientRequestArgs;
      const host = options.hostname ?? options.host ?? 'localhost';
      const port = Number(options.port) || (secure ? 443 : 80);
      openTunnel(proxy, host, port).then(
        (socket) => callback?.(null, secure ? tlsConnect({ ...options, host, port, socket, servername: options.servername ?? host }) : socket),
        (error: Error) => callback?.(error, undefined as unknown as Duplex),
      );
      return undefined;
    }
  }
  return new Tunnel({ keepAlive: false });
}

/** A socket to `host:port` through the proxy's CONNECT, once it answered 2xx. */
function openTunnel(proxy: URL, host: string, port: number): Promise<Socket> {
  const proxyPort = Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80);
  const socket: Socket = proxy.protocol === 'https:' ? tlsConnect({ host: proxy.hostname, port: proxyPort, servername: proxy.hostname }) : netConnect({ host: proxy.hostname, port: proxyPort });
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const auth = proxy.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n` : '';
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', (error) => reject(new Error(`proxy ${displayUrl(proxy)}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)));
    socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > 16 * 1024) fail(new Error(`proxy ${displayUrl(proxy)} sent no end to its answer to CONNECT`));
        return;
      }
      socket.off('data', onData);
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 2\d\d\b/.test(status)) return fail(new Error(`proxy ${displayUrl(proxy)} refused the tunnel to ${target}: ${status.slice(0, 80)}`));
      // Bytes the tenant sent after the proxy's answer belong to the connection.
      if (head.length > end + 4) socket.unshift(head.subarray(end + 4));
      socket.removeAllListeners('error');
      resolve(socket);
    };
    socket.on('data', onData);
  });
}
