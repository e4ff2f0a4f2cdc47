/**
 * `parts` joined into pieces of at least `size` code units (the last may be shorter): a text too
 * large to hold whole (a plan of 100,000 Roles) written in few writes, never held at once.
 */
export function* joinedInPieces(parts: Iterable<string>, size = 1 << 20): Generator<string> {
  let pending = '';
  for (const part of parts) {
    pending += part;
    if (pending.length >= size) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}
