import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../src/core/errors.js';
import fc from 'fast-check';
import { decodeText, TextStreamDecoder, type TextFileKind } from '../../src/core/text/text-file.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const problems = (bytes: Uint8Array, kind: TextFileKind): string[] => {
  const r = decodeText(bytes, 'flows/a.yaml', kind);
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe('decodeText', () => {
  const kind: TextFileKind = { maxBytes: 10, noun: 'a flow test', holds: 'YAML text' };

  test('takes a file of exactly the limit, and drops one leading BOM', () => {
    expect(decodeText(enc('0123456789'), 'flows/a.yaml', kind)).toEqual({ ok: true, value: '0123456789' });
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('a: 1')]), 'flows/a.yaml', kind)).toEqual({ ok: true, value: 'a: 1' });
  });

  test("says the kind's limit, in MiB only when it is a whole number of them", () => {
    expect(problems(enc('01234567890'), kind)).toEqual(['flows/a.yaml:1:1: file is too large (11 bytes): a flow test may hold at most 10 bytes']);
    const mib = { ...kind, maxBytes: 2 * 1024 * 1024 };
    expect(problems(new Uint8Array(mib.maxBytes + 1), mib)).toEqual([
      `flows/a.yaml:1:1: file is too large (${mib.maxBytes + 1} bytes): a flow test may hold at most ${mib.maxBytes} bytes (2 MiB)`,
    ]);
  });

  test('names what the kind holds when a file is binary', () => {
    expect(problems(Uint8Array.from([0x61, 0xc3]), kind)).toEqual(['flows/a.yaml:1:1: binary file (not valid UTF-8): a flow test is YAML text']);
    expect(problems(enc('a: 1\nb: \0'), kind)).toEqual(['flows/a.yaml:2:4: binary file (contains a NUL byte): a flow test is YAML text']);
  });

  test('a refused file does not spoil the next one: each file is decoded on its own', () => {
    expect(problems(Uint8Array.from([0x61, 0xe2, 0x82]), kind)).toEqual(['flows/a.yaml:1:1: binary file (not valid UTF-8): a flow test is YAML text']);
    expect(decodeText(Uint8Array.from([0xac, 0x20, 0x61]), 'flows/a.yaml', kind).ok).toBe(false);
    expect(decodeText(enc('€ a'), 'flows/a.yaml', kind)).toEqual({ ok: true, value: '€ a' });
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('b')]), 'flows/a.yaml', kind)).toEqual({ ok: true, value: 'b' });
  });
});

describe('TextStreamDecoder', () => {
  const kind = { maxBytes: 64, noun: 'a JSON report', holds: 'JSON text' };
  test('gives the text, or the issue, decodeText gives the whole file, however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }).map((t) => new TextEncoder().encode(t)), fc.uint8Array({ maxLength: 70 })), fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
        const whole = decodeText(bytes, 'f.json', kind);
        const decoder = new TextStreamDecoder('f.json', kind);
        let text = '';
        let from = 0;
        for (const cut of [...cuts.map((c) => c % (bytes.length + 1)), bytes.length].sort((a, b) => a - b)) {
          const piece = decoder.decode(bytes.subarray(from, cut), cut === bytes.length);
          from = cut;
          if (!piece.ok) {
            // The whole file is refused too (its size is checked before reading: a piece refused for its size names the bytes read so far).
            expect(whole.ok).toBe(false);
            const tooLarge = (m: string) => m.startsWith('file is too large');
            if (!whole.ok && !tooLarge(whole.issues[0]!.message)) expect(piece.issues).toEqual(whole.issues);
            return;
          }
          text += piece.value;
          if (cut === bytes.length) break;
        }
        expect(whole).toEqual({ ok: true, value: text });
      }),
      { numRuns: 500 },
    );
  });
});
