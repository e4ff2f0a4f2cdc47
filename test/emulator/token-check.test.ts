import { timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenChecker } from '../../src/emulator/auth-and-faults.js';

// What the check promises: a candidate is accepted exactly when its UTF-8 bytes are the token's.
function sameBytes(token: string, candidate: string | undefined): boolean {
  if (candidate === undefined) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const unit = fc.constantFrom('a', 'b', 'Z', '0', '-', '_', '~', ' ', '\u0000', '\u007f', '\u0080', 'é', 'ÿ', '€', '\ud83d', '\ude00', '\ud83d\ude00');
const text = fc.string({ unit, maxLength: 8 });
// Candidates near the token: itself, its bytes read as latin1 (how a header carries them), edits.
const near = (token: string) =>
  fc.oneof(
    fc.constant(token),
    fc.constant(Buffer.from(token).toString('latin1')),
    fc.tuple(fc.nat(), text).map(([at, s]) => token.slice(0, at % (token.length + 1)) + s + token.slice((at % (token.length + 1)) + 1)),
    text,
    fc.constant(undefined),
  );

describe('tokenChecker', () => {
  it('accepts exactly the candidates whose UTF-8 bytes are the token', () => {
    const pair = text.filter((t) => t !== '').chain((token) => fc.tuple(fc.constant(token), near(token)));
    fc.assert(
      fc.property(pair, ([token, candidate]) => {
        expect(tokenChecker(token)(candidate)).toBe(sameBytes(token, candidate));
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts the token and refuses every one-character change of it', () => {
    const check = tokenChecker('roleflow-dev-token');
    expect(check('roleflow-dev-token')).toBe(true);
    expect(check('roleflow-dev-tokeN')).toBe(false);
    expect(check('roleflow-dev-toke\u00ee')).toBe(false);
    expect(check('roleflow-dev-toke')).toBe(false);
    expect(check(undefined)).toBe(false);
    expect(tokenChecker('é')('\u00c3\u00a9')).toBe(false);
    expect(tokenChecker('é')('é')).toBe(true);
  });
});
