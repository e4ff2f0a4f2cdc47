import { describe, expect, it } from 'vitest';
import { createRateLimit } from '../../src/emulator/auth-and-faults.js';

/** A rate limit on a clock the test moves by hand. */
function limited(perSecond: number) {
  let now = 0;
  const limit = createRateLimit(perSecond, () => now);
  return { take: () => limit.take(), advance: (ms: number) => void (now += ms) };
}

describe('the rate limit (token bucket)', () => {
  it('lets a second of requests through at once, then refuses with the whole seconds until a token is there', () => {
    const bucket = limited(20);
    for (let i = 0; i < 20; i++) expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(1);
    bucket.advance(49);
    expect(bucket.take()).toBe(1);
    bucket.advance(1);
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(1);
  });

  it('refills at the rate, never past a second of tokens', () => {
    const bucket = limited(20);
    for (let i = 0; i < 20; i++) bucket.take();
    bucket.advance(60_000);
    let passed = 0;
    while (bucket.take() === undefined) passed++;
    expect(passed).toBe(20);
  });

  it('takes nothing from a refused request: a client waiting as asked is served at the full rate', () => {
    const bucket = limited(4);
    for (let i = 0; i < 4; i++) bucket.take();
    let served = 0;
    // A client asking every 10 ms for 10 s: refused asks cost it nothing, so it gets a token every
    // 250 ms (the first 250 ms after the bucket was emptied, the last at 10 s).
    for (let t = 0; t <= 10_000; t += 10) {
      if (bucket.take() === undefined) served++;
      bucket.advance(10);
    }
    expect(served).toBe(40);
  });

  it('asks for more than a second when the rate is under one a second, and holds at least one token', () => {
    const bucket = limited(0.5);
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(2);
    bucket.advance(1000);
    expect(bucket.take()).toBe(1);
    bucket.advance(1000);
    expect(bucket.take()).toBeUndefined();
  });
});
