import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../src/core/errors.js';
import { decodeText, type TextFileKind } from '../../src/core/text/text-file.js';

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
