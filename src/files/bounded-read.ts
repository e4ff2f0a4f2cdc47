import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Issue, Result } from '../core/errors.js';
import { decodeText, nulIssue, tooLargeIssue, type TextFileKind } from '../core/text/text-file.js';

/**
 * Reading one file roleflow checks within its kind's limit: the size checked before reading, so a
 * huge file is never loaded, and something other than a file (a FIFO, a device) refused rather
 * than waited on. `source-files.ts` finds the files; this reads them.
 */

/** A file found or named: `file` is its name in every message and report (`displayPath`). */
export interface SourceFile {
  abs: string;
  file: string;
  /** A folder walk found a regular file (or a link to one) here, just before: see `readSeenFile`. */
  seenAsFile?: boolean;
  /** A folder walk found a symbolic link (to a file) here, which may lead out of the folder. */
  link?: boolean;
}

/** Reads at most `limit.maxBytes` (see above). */
export async function readBounded(abs: string, file: string, limit: Pick<TextFileKind, 'maxBytes' | 'noun'>): Promise<Result<Uint8Array>> {
  return readBoundedSync(abs, file, limit);
}

/**
 * `readBounded` without the thread pool: open, fstat, read, close on this thread. For the many
 * small files of a roles folder this is quicker than `fs.promises`, where each of
 * those steps is a thread-pool job and a callback. The open does not block: with O_NONBLOCK a
 * FIFO opens at once (without it, it would wait for a writer), and fstat then refuses it.
 */
export function readBoundedSync(abs: string, file: string, limit: Pick<TextFileKind, 'maxBytes' | 'noun'>): Result<Uint8Array> {
  return withOpenFile(abs, file, limit, (fd, size) => {
    const bytes = readOpen(fd, size, limit.maxBytes);
    return bytes.length > limit.maxBytes ? { ok: false, issues: [tooLargeIssue(file, bytes.length, limit)] } : { ok: true, value: bytes };
  });
}

/** A text file of the given kind, read within its limit and decoded (`decodeText`). */
export async function readTextFile(source: SourceFile, kind: TextFileKind): Promise<Result<string>> {
  return readTextFileSync(source, kind);
}

/**
 * `readTextFile` on this thread, exactly
 * `decodeText(readBoundedSync(…))`. A small file is read into one buffer kept for the next (no
 * buffer per file) and decoded by Node's UTF-8 decoder; when that decoder had to replace
 * anything (it writes U+FFFD for bytes that are not UTF-8), or the text holds U+FFFD anyway,
 * `decodeText` decodes the same bytes and has the last word.
 */
export function readTextFileSync(source: SourceFile, kind: TextFileKind): Result<string> {
  const decodeSeen = (fd: number): Result<string> | undefined => {
    const seen = readSeenFile(fd, kind.maxBytes);
    return seen === undefined ? undefined : decodeSmall(seen, source.file, kind);
  };
  const read = (fd: number, size: number): Result<string> => {
    if (size === 0 || size > QUICK_READ_BYTES) return decodeText(readOpen(fd, size, kind.maxBytes), source.file, kind);
    scratch ??= Buffer.allocUnsafe(QUICK_READ_BYTES);
    return decodeSmall(scratch.subarray(0, readInto(fd, scratch, size)), source.file, kind);
  };
  return withOpenFile(source.abs, source.file, kind, read, source.seenAsFile === true ? decodeSeen : undefined);
}

/** `decodeText(bytes, file, kind)` for bytes within the kind's limit, through Node's decoder when it can. */
export function decodeSmall(bytes: Buffer, file: string, kind: TextFileKind): Result<string> {
  if (bytes.length > kind.maxBytes) return decodeText(bytes, file, kind);
  const decoded = bytes.toString('utf8');
  if (decoded.includes('\uFFFD')) return decodeText(bytes, file, kind);
  // Valid UTF-8: the same text as the strict decoder's, which drops one leading byte-order mark.
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const binary = nulIssue(text, file, kind);
  return binary ? { ok: false, issues: [binary] } : { ok: true, value: text };
}

/**
 * A file the folder walk has just seen as a regular file, read whole without asking its size: one
 * read from its start into the kept buffer. Its bytes when that read gave more than none and less
 * than the buffer and the limit hold (all of a regular file), else undefined: then it is read the
 * general way on the same descriptor (`withOpenFile`: fstat, then `read`), so an empty, large or
 * unreadable file gets the same answer as ever. The read is a `pread`, which leaves the offset
 * where it was, and which a FIFO or a terminal put there since the walk refuses (ESPIPE): that
 * too ends in the general way's refusal.
 */
function readSeenFile(fd: number, maxBytes: number): Buffer | undefined {
  try {
    scratch ??= Buffer.allocUnsafe(QUICK_READ_BYTES);
    const n = readSync(fd, scratch, 0, QUICK_READ_BYTES, 0);
    return n > 0 && n < QUICK_READ_BYTES && n <= maxBytes ? scratch.subarray(0, n) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Small files are read into this buffer, one after another. A file's first read asks for this many
 * bytes (`readSeenFile`).
 */
export const QUICK_READ_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/**
 * Open `abs`, check it is a file within the limit, then `read(fd, size)`; always closed. `quick`,
 * when given, is tried first on the open file: its answer, when it has one, is the answer.
 */
function withOpenFile<T>(
  abs: string,
  file: string,
  limit: Pick<TextFileKind, 'maxBytes' | 'noun'>,
  read: (fd: number, size: number) => Result<T>,
  quick?: (fd: number) => Result<T> | undefined,
): Result<T> {
  let fd: number;
  try {
    fd = openSync(abs, QUICK_READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return cannotRead(file, code === 'EISDIR' ? 'it is a folder' : (code ?? String(err)));
  }
  try {
    const answer = quick?.(fd);
    if (answer !== undefined) return answer;
    const s = fstatSync(fd);
    if (!s.isFile()) return cannotRead(file, s.isDirectory() ? 'it is a folder' : 'not a regular file');
    if (s.size > limit.maxBytes) return { ok: false, issues: [tooLargeIssue(file, s.size, limit)] };
    return read(fd, s.size);
  } catch (err) {
    return cannotRead(file, (err as NodeJS.ErrnoException).code ?? String(err));
  } finally {
    closeSync(fd);
  }
}

// O_NONBLOCK does not exist on Windows, which has no FIFOs in its file system either.
export const QUICK_READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The file's bytes as `readFileSync` reads them: `size` bytes (fewer if it shrank meanwhile), or,
 * when fstat says 0 (virtual files that only know their length once read), until the end, but
 * never more than one byte past `maxBytes`, so the caller can refuse it.
 */
function readOpen(fd: number, size: number, maxBytes: number): Uint8Array {
  if (size > 0) {
    const buffer = Buffer.allocUnsafe(size);
    const got = readInto(fd, buffer, size);
    return got === size ? buffer : buffer.subarray(0, got);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** Up to `size` bytes from the start of the file into `buffer`; how many there were. */
function readInto(fd: number, buffer: Buffer, size: number): number {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buffer, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

function cannotRead(file: string, why: string): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ file, line: 1, col: 1, message: `cannot read the file (${why})` }] };
}
