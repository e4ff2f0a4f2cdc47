import type { Issue, Result } from './issues.js';

/**
 * A kind of text file roleflow reads (role files, flow tests, saved plans): its size limit, and
 * the words its messages use, so every kind is refused the same way and says what it expected.
 */
export interface TextFileKind {
  /** Larger files are refused unread: a mistaken or hostile file cannot exhaust memory. */
  maxBytes: number;
  /** How messages name such a file: `a role file`. */
  noun: string;
  /** What such a file holds, said when it holds something else: `markdown text`. */
  holds: string;
}

/**
 * Bytes read from disk → text. Too many bytes, invalid UTF-8 and NUL bytes are refused ("binary
 * file") as located issues; a leading byte-order mark is dropped. The size is checked before
 * decoding so a huge file is never turned into a string.
 */
export function decodeText(bytes: Uint8Array, file: string, kind: TextFileKind): Result<string> {
  if (bytes.length > kind.maxBytes) return { ok: false, issues: [tooLargeIssue(file, bytes.length, kind)] };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, issues: [{ file, line: 1, col: 1, message: `binary file (not valid UTF-8): ${kind.noun} is ${kind.holds}` }] };
  }
  const binary = nulIssue(text, file, kind);
  return binary ? { ok: false, issues: [binary] } : { ok: true, value: text };
}

/** The issue for a file of `size` bytes over the kind's limit, at 1:1. */
export function tooLargeIssue(file: string, size: number, kind: Pick<TextFileKind, 'maxBytes' | 'noun'>): Issue {
  const mib = kind.maxBytes % MIB === 0 ? ` (${kind.maxBytes / MIB} MiB)` : '';
  return { file, line: 1, col: 1, message: `file is too large (${size} bytes): ${kind.noun} may hold at most ${kind.maxBytes} bytes${mib}` };
}

/** A NUL character means binary content; the issue points at the first one. */
export function nulIssue(text: string, file: string, kind: TextFileKind): Issue | undefined {
  const at = text.indexOf('\0');
  if (at === -1) return undefined;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  return { file, line, col, message: `binary file (contains a NUL byte): ${kind.noun} is ${kind.holds}` };
}

const MIB = 1024 * 1024;

// One decoder for every file: a call without `stream` starts afresh, even after a refused one.
// With ignoreBOM off (the default) it drops one leading BOM itself.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
