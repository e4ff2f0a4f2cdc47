import { timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/**
 * A check of a presented token against the accepted one, in constant time for equal lengths: the
 * UTF-8 bytes of both must be equal. Every request meets it, so the usual case (as many characters
 * as the token has bytes) compares characters with bytes without encoding the candidate: equal
 * only when every character is ASCII (one byte each) and matches.
 */
export function tokenChecker(token: string): (candidate: string | undefined) => boolean {
  const expected = Buffer.from(token);
  return (candidate) => {
    if (candidate === undefined) return false;
    if (candidate.length === expected.length) {
      let diff = 0;
      for (let i = 0; i < expected.length; i++) {
        const c = candidate.charCodeAt(i);
        diff |= (c ^ expected[i]!) | (c >>> 7);
      }
      return diff === 0;
    }
    // More characters than bytes can never encode to the token; fewer can (non-ASCII ones).
    if (candidate.length > expected.length) return false;
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}

/** The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive). */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length < 7 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7);
}

export interface Faults {
  /** The status to fail this request with before doing anything, if it is to fail. */
  failure(): 500 | 503 | undefined;
  /** Whether to drop the connection of this (already applied) change without answering. */
  lost(): boolean;
}

/** Injected faults; with a seed, the same sequence of requests meets the same faults. */
export function createFaults(failRate = 0, lostRate = 0, seed?: number): Faults {
  const random = seed === undefined ? Math.random : mulberry32(seed);
  return {
    failure: () => (failRate > 0 && random() < failRate ? (random() < 0.5 ? 500 : 503) : undefined),
    lost: () => lostRate > 0 && random() < lostRate,
  };
}

/**
 * A token bucket of `perSecond` tokens a second, holding at most `perSecond` (at least 1): a
 * request takes a token or is refused. `take()` answers undefined when the request may go on, else
 * the whole seconds to wait before a token is there (Retry-After), at least 1. A refused request
 * takes nothing, so clients that wait as asked are served at the full rate.
 */
export interface RateLimit {
  take(): number | undefined;
}

// Kept as the time the bucket is next full (the generic cell rate algorithm, the same decisions
// as counting tokens), so no fraction of a token accumulates rounding errors.
export function createRateLimit(perSecond: number, now: () => number = () => performance.now()): RateLimit {
  const interval = 1000 / perSecond;
  const burst = (Math.max(1, Math.floor(perSecond)) - 1) * interval;
  let fullAt = now();
  return {
    take() {
      const t = now();
      const next = Math.max(fullAt, t);
      const waitMs = next - burst - t;
      if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
      fullAt = next + interval;
      return undefined;
    },
  };
}

// A tiny, well-known 32-bit PRNG: enough for reproducible fault injection.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
