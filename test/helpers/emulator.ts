import { afterAll, beforeAll } from 'vitest';
import { request } from 'undici';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

/** One emulator for the whole test file: started before the first test, closed after the last. */
export function emulatorPerFile(options: EmulatorOptions = {}): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('the emulator has not started');
    return emulator;
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
}

/** One raw HTTP call with the emulator's token (or `token`, or none with `token: null`). */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; token?: string | null } = {},
): Promise<Reply> {
  const token = opts.token === undefined ? emulator.token : opts.token;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const res = await request(`${emulator.baseUrl}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, body: parsed };
}
