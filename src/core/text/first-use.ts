/**
 * A value made on its first use, not when its module loads. For a regular expression: V8 checks a
 * pattern as the RegExp is made (a literal: when it is first evaluated), and for a Unicode property
 * class (`\p{L}`, `\p{Cc}`…) it looks up every character of the property then: ~3 ms a pattern,
 * paid by every command that loads the module, though only text beyond ASCII ever needs these
 * patterns (their callers answer printable ASCII without them).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
