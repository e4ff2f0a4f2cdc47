import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestLog, type RequestRecord } from '../../src/emulator/http-kit.js';

describe('RequestLog', () => {
  it('lists the last `capacity` requests in the order they were answered', () => {
    const record = fc.record({ method: fc.constantFrom('GET', 'POST', 'DELETE'), path: fc.string({ maxLength: 6 }), status: fc.constantFrom(0, 200, 404) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.array(fc.array(record, { maxLength: 12 }), { maxLength: 4 }), (capacity, batches) => {
        const log = new RequestLog(capacity);
        const all: RequestRecord[] = [];
        expect(log.list()).toEqual([]);
        // Listed between batches too: listing changes nothing.
        for (const batch of batches) {
          for (const r of batch) {
            log.add(r.method, r.path, r.status);
            all.push(r);
          }
          expect(log.list()).toEqual(all.slice(-capacity));
        }
      }),
    );
  });
});
