import { Buffer } from 'node:buffer';

/**
 * `parts` joined and encoded as UTF-8, in pieces of about `size` bytes (a part longer than that is
 * a piece of its own), each a fresh buffer that `seen` gets before it is yielded: a text too large
 * to hold whole (the plan of 100,000 Roles) written in few writes, never held at once. The text is
 * encoded once, where strings would be encoded again by each taker of the bytes (a writer, a hash)
 * and a joined piece flattened first. Parts must be well-formed UTF-16, as JSON text is (it
 * escapes lone surrogates): UTF-8 holds them exactly.
 */
export function* encodedInPieces(parts: Iterable<string>, seen: (bytes: Uint8Array) => void = () => {}, size = 1 << 20): Generator<Uint8Array> {
  let piece = Buffer.allocUnsafe(size);
  let used = 0;
  for (const part of parts) {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (used + part.length * 3 > piece.length) {
      if (used > 0) {
        const full = piece.subarray(0, used);
        seen(full);
        yield full;
      }
      piece = Buffer.allocUnsafe(Math.max(size, part.length * 3));
      used = 0;
    }
    used += piece.write(part, used);
  }
  if (used > 0) {
    const last = piece.subarray(0, used);
    seen(last);
    yield last;
  }
}
