import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText } from '../../src/core/text/text-file.js';
import { decodeSmall, readBoundedSync, readTextFileSync } from '../../src/files/bounded-read.js';

// Role files and flow tests are read through a buffer kept from file to file and Node's UTF-8
// decoder (`readTextFileSync`): it must give exactly what the strict path gives, the text or the
// located refusal, for any bytes.

const kind = { maxBytes: 200, noun: 'a role file', holds: 'markdown text' };
// Bytes a decoder could read differently: BOMs, U+FFFD itself, overlong and truncated sequences,
// encoded surrogates, NUL, and bytes that are never UTF-8.
const piece = fc.oneof(
  fc.uint8Array({ maxLength: 6 }),
  fc.constantFrom(
    [0xef, 0xbb, 0xbf], [0xef, 0xbf, 0xbd], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
    [0xf0, 0x9f, 0x98, 0x80], [0xf0, 0x9f, 0x98], [0xf4, 0x90, 0x80, 0x80], [0xff], [0x00], [0x0a], [0xc3, 0xa9],
  ).map((b) => Uint8Array.from(b)),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => new TextEncoder().encode(s)),
);
const bytes = fc.array(piece, { maxLength: 12 }).map((pieces) => Buffer.concat(pieces));

describe('reading a text file through the kept buffer', () => {
  it('decodes any bytes exactly as decodeText does, text or refusal', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeSmall(b, 'roles/a.md', kind)).toEqual(decodeText(b, 'roles/a.md', kind));
      }),
      { numRuns: 5000 },
    );
  });

  const dir = mkdtempSync(join(tmpdir(), 'roleflow-bounded-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads files (small, empty, over the kept buffer, over the limit) exactly as decodeText of readBoundedSync', () => {
    const strict = (abs: string, k: typeof kind) => {
      const read = readBoundedSync(abs, 'f.md', k);
      return read.ok ? decodeText(read.value, 'f.md', k) : read;
    };
    const big = { ...kind, maxBytes: 1024 * 1024 };
    const cases: [Uint8Array, typeof kind][] = [
      [Buffer.from('---\nname: a\n---\nhé\n'), kind],
      [Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61]), kind],
      [Buffer.from('a\uFFFDb'), kind],
      [Buffer.from([0x61, 0xff, 0x62]), kind],
      [Buffer.from('a\0b'), kind],
      [Buffer.alloc(0), kind],
      [Buffer.from('x'.repeat(201)), kind],
      [Buffer.from('é'.repeat(70 * 1024)), big],
      [Buffer.concat([Buffer.from('é'.repeat(70 * 1024)), Buffer.from([0xc3])]), big],
    ];
    cases.forEach(([content, k], i) => {
      const abs = join(dir, `${i}.md`);
      writeFileSync(abs, content);
      expect(readTextFileSync({ abs, file: 'f.md' }, k)).toEqual(strict(abs, k));
      // As a folder walk finds it (read without asking its size first): the same answer.
      expect(readTextFileSync({ abs, file: 'f.md', seenAsFile: true }, k)).toEqual(strict(abs, k));
    });
    expect(readTextFileSync({ abs: join(dir, 'none.md'), file: 'f.md' }, kind)).toEqual(strict(join(dir, 'none.md'), kind));
    expect(readTextFileSync({ abs: dir, file: 'f.md' }, kind)).toEqual(strict(dir, kind));
    // What the walk saw as a file may be gone, or something else, by the time it is read.
    expect(readTextFileSync({ abs: join(dir, 'none.md'), file: 'f.md', seenAsFile: true }, kind)).toEqual(strict(join(dir, 'none.md'), kind));
    expect(readTextFileSync({ abs: dir, file: 'f.md', seenAsFile: true }, kind)).toEqual(strict(dir, kind));
    fc.assert(
      fc.property(bytes, (b) => {
        const abs = join(dir, 'any.md');
        writeFileSync(abs, b);
        expect(readTextFileSync({ abs, file: 'f.md' }, kind)).toEqual(strict(abs, kind));
        expect(readTextFileSync({ abs, file: 'f.md', seenAsFile: true }, kind)).toEqual(strict(abs, kind));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a FIFO put where the walk saw a file, without waiting on it, as when it is named', () => {
    const abs = join(dir, 'pipe.md');
    execFileSync('mkfifo', [abs]);
    const refused = { ok: false, issues: [{ file: 'f.md', line: 1, col: 1, message: 'cannot read the file (not a regular file)' }] };
    expect(readTextFileSync({ abs, file: 'f.md' }, kind)).toEqual(refused);
    expect(readTextFileSync({ abs, file: 'f.md', seenAsFile: true }, kind)).toEqual(refused);
  });
});
