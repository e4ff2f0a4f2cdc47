import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

// A JSON body arriving in pieces (chunked, split anywhere, even inside a UTF-8 character) is read
// as the whole body: the Role stored is the one sent. One piece or many must not matter.
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ maxBodyBytes: 4096 });
});
afterAll(() => emulator.close());

/** Send `body` in the given pieces as chunked transfer encoding; the answer's status and body. */
function sendInPieces(pieces: Buffer[]): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(emulator.baseUrl);
  const head = `POST /admin/roles/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emulator.token}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, async () => {
      socket.write(head);
      for (const piece of pieces) {
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(Buffer.concat([piece, Buffer.from('\r\n')]));
        await new Promise((r) => setImmediate(r));
      }
      socket.end('0\r\n\r\n');
    });
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
  });
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) pieces.push(bytes.subarray(from, cut));
    from = cut;
  }
  return pieces;
}

const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '"', '\\', 'é', '€', '\ud83d\ude00', '{'), maxLength: 60 });

describe('emulator: request bodies in pieces', () => {
  it('stores the Role sent, however its body is split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ name: text.filter((s) => s !== ''), description: text, content: text }), fc.array(fc.nat(), { maxLength: 8 }), async (fields, cuts) => {
        const body = Buffer.from(JSON.stringify(fields));
        const answer = await sendInPieces(split(body, cuts));
        expect(answer.status).toBe(200);
        const { id } = JSON.parse(answer.body) as { id: string };
        expect(emulator.roles().find((r) => r.id === id)).toMatchObject(fields);
      }),
      { numRuns: 40 },
    );
  });

  it('answers 400 to a body cut inside JSON, and 413 once the pieces pass the limit', async () => {
    const body = Buffer.from('{"name":"x","description":"d","content":"c"');
    expect((await sendInPieces(split(body, [3, 9, 20]))).status).toBe(400);
    const big = Buffer.from(JSON.stringify({ name: 'x', description: '', content: 'y'.repeat(5000) }));
    expect((await sendInPieces(split(big, [1000, 2000, 3000, 4000]))).status).toBe(413);
  });
});
