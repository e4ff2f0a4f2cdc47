import type { Limits } from '../model.js';

export type { Limits } from '../model.js';

/* The defaults of `limits:` (the Limits type is model.ts's), its sizes as written and as printed. */

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

export const DEFAULT_LIMITS: Limits = { maxResponseBytes: 64 * MIB, maxMessages: 100_000, maxExecutionBytes: 64 * MIB };

/** The config keys, for messages: `limits.max_messages`. */
export const LIMIT_KEYS: Record<keyof Limits, string> = {
  maxResponseBytes: 'limits.max_response_bytes',
  maxMessages: 'limits.max_messages',
  maxExecutionBytes: 'limits.max_execution_bytes',
};

const UNITS: Record<string, number> = { b: 1, kb: 1000, kib: KIB, mb: 1000 ** 2, mib: MIB, gb: 1000 ** 3, gib: GIB };

/** A size in bytes from a whole number or `64MiB`, `512 KB`, `1GiB`; undefined when it is neither. */
export function parseByteSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = UNITS[(m?.[2] ?? '').toLowerCase() || 'b'];
  if (!m || unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/** `64 MiB`, `1.5 KiB`, `900 bytes`. */
export function showBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', GIB], ['MiB', MIB], ['KiB', KIB]] as const) {
    if (bytes >= size) return `${Math.round((bytes / size) * 10) / 10} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The words of a limit that was reached: `limits.max_messages (100000)`, `limits.max_response_bytes (64 MiB)`. */
export function namedLimit(limits: Limits, key: keyof Limits): string {
  const value = key === 'maxMessages' ? String(limits[key]) : showBytes(limits[key]);
  return `${LIMIT_KEYS[key]} (${value})`;
}
