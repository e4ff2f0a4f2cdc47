// The floor for emulator-load: a bare node:http server giving the same answers on the same routes
// with no routing table, auth, logging or store. `node serve-floor.mjs N` serves N fixed Roles.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { roleFields, serveChildProtocol } from './lib.mjs';

const count = Number(process.argv[2] ?? 100);
const now = new Date().toISOString();
const byId = new Map();
for (let i = 0; i < count; i++) {
  const id = randomUUID();
  byId.set(id, JSON.stringify({ id, ...roleFields(i), created_at: now, last_updated: now }));
}
const list = Buffer.from(`[${[...byId.values()].join(',')}]`);

const server = createServer((req, res) => {
  const [path, query = ''] = (req.url ?? '/').split('?');
  if (req.method === 'GET' && path === '/admin/roles/get') {
    const id = new URLSearchParams(query).get('id');
    if (id === null) return send(res, 200, list);
    const role = byId.get(id);
    return role === undefined ? send(res, 404, '{"message":"role not found"}') : send(res, 200, `[${role}]`);
  }
  if (req.method === 'POST' && path === '/admin/roles/create') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, '{"message":"malformed JSON body"}');
      }
      send(res, 200, JSON.stringify({ message: 'Role created', id: randomUUID() }));
    });
    return;
  }
  send(res, 404, '{"message":"not found"}');
});

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  serveChildProtocol({ baseUrl: `http://127.0.0.1:${port}`, token: 'floor', ids: [...byId.keys()] }, () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
});
