import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { messagePayload } from '../../src/core/runs/index.js';
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
        expect(messagePayload(decoded!)).toStrictEqual(parsedOrNothing(message));
      }),
      { numRuns: 2000 },
    );
  });

  test('a message sent as a JSON value rather than a string is kept as its JSON, and read back as that value', () => {
    fc.assert(
      fc.property(fc.jsonValue().filter((v) => typeof v !== 'string' && v !== undefined), (value) => {
        const decoded = toWsMessage(JSON.stringify({ state: 'completed', statusCode: '200', message: value }));
        expect(decoded?.messageText).toBe(JSON.stringify(value));
        expect(messagePayload(decoded!)).toStrictEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });
});
