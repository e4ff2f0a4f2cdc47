import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toWsMessage } from '../../src/tenant/decode.js';

/** What the message's `payload` must be: its text read as JSON when it is JSON, else nothing. */
function parsedOrNothing(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

describe('a WebSocket frame decoded', () => {
  test('its message text is read as JSON exactly when JSON.parse reads it (prose is refused before parsing)', () => {
    const texts = fc.oneof(
      fc.string(),
      fc.json(),
      fc.json().map((j) => ` \t\r\n${j}\n`),
      fc.constantFrom('request received and is being processed', '', ' ', 'true', 'nul', '-', '-1', '"x', '\u00a01', '\ufeff{}', '{"a":1} x'),
    );
    fc.assert(
      fc.property(texts, texts, (message, inputs) => {
        const decoded = toWsMessage(JSON.stringify({ state: 'completed', statusCode: '200', message, inputsValues: inputs }));
        expect(decoded?.messageText).toBe(message);
        expect(decoded?.payload).toStrictEqual(parsedOrNothing(message));
        expect(decoded?.inputsValues).toStrictEqual(parsedOrNothing(inputs));
        expect(decoded && 'payload' in decoded).toBe(parsedOrNothing(message) !== undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
