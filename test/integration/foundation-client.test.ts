import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { clientFor, rejection } from './client-kit.js';

describe('client: after close()', () => {
  it('refuses at once, in one line, without retrying or sending anything', async () => {
    const emulator = await startEmulator();
    try {
      const { client, lines } = clientFor(emulator, { retries: 4 });
      await client.listRoles();
      await client.close();
      await client.close();
      const before = emulator.requests().length;
      const error = await rejection(client.createRole({ name: 'late', description: '', content: '' }));
      expect(error.message).toBe('POST /admin/roles/create: not sent: the client was already closed');
      expect(lines.map((l) => l.attempt)).toEqual([1, 1]);
      expect(emulator.requests()).toHaveLength(before);
    } finally {
      await emulator.close();
    }
  });
});
