import type { WsServerMessage } from '../model.js';

/** What a JSON text can start with, after its white space: anything else is certainly not JSON. */
const JSON_START = /^[ \t\n\r]*[{["0-9tfn-]/;

/**
 * A message's `message` text read as JSON (a completed message's `{outputs: …}`), or `undefined`
 * when it is not JSON (an ack's prose). Read when asked, not as each message arrives: an execution
 * needs the payload of one message, its last completed one, and the frames of a run are thousands.
 */
export function messagePayload(message: WsServerMessage): unknown {
  const text = message.messageText;
  // Prose is refused here, without the cost of a SyntaxError.
  if (!JSON_START.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
