import { isDeepStrictEqual } from 'node:util';

/**
 * The JSON of `value`, or `undefined` when JSON cannot carry it exactly: what is read back must be
 * the value itself (no `undefined` member, `-0`, `NaN` or infinity, no object of another
 * prototype, no cycle: YAML's aliases can make one). What roleflow keeps between runs
 * (files/parse-cache.ts) is kept only so.
 */
export function exactJson(value: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return json !== undefined && isDeepStrictEqual(JSON.parse(json), value) ? json : undefined;
}
