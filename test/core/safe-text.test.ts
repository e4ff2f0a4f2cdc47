import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeChar, escapeControls, escapeStray, fitColumns, hasUnsafe, jsonText, safeText } from '../../src/core/text/safe-text.js';

// What no shown text may hold, written out here rather than taken from the module under test:
// C0, DEL, C1, format characters (bidi overrides, zero-width), line/paragraph separators, lone
// surrogates, and the noncharacters XML 1.0 refuses.
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff\u{e0001}\u{e0020}-\u{e007f}\u{1d173}-\u{1d17a}]|\p{Cs}/u;

/** Characters an attacker and a fuzzer would try, mixed with every UTF-16 code unit and astral characters. */
const hostileChar = fc.oneof(
  fc.constantFrom('\u001b', '\u0007', '\u0000', '\r', '\n', '\t', '\u007f', '\u0085', '\u009b', '\u2028', '\u2029', '\u202e', '\u2066', '\u200b', '\ufeff', '\u{e0041}', '\\', 'u', 'n', '{', '0', '1', 'b', ':', '%'),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const hostile = fc.string({ unit: hostileChar, maxLength: 40 });
const control = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }),
  fc.constant(0x7f),
  fc.integer({ min: 0x80, max: 0x9f }),
  fc.constantFrom(0x2028, 0x2029, 0x202e, 0x2066, 0x200b),
).map((c) => String.fromCharCode(c));

/** The reading a person makes of `safeText`'s output: `\\` is a backslash, `\n`, `\u001b`, `\u{e0001}` the character. */
function decode(shown: string): string {
  return shown.replace(/\\(\\|n|r|t|u\{([0-9a-f]+)\}|u([0-9a-f]{4}))/g, (_, what: string, astral?: string, bmp?: string) => {
    if (what === '\\') return '\\';
    if (what === 'n') return '\n';
    if (what === 'r') return '\r';
    if (what === 't') return '\t';
    return String.fromCodePoint(parseInt(astral ?? bmp!, 16));
  });
}

describe('safeText', () => {
  it('for any string: no control, format or separator character, and one line', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const shown = safeText(s);
        expect(shown).not.toMatch(RAW_CONTROL);
        expect(shown.split('\n')).toHaveLength(1);
      }),
      { numRuns: 3000 },
    );
  });

  it('for any string: reads back as exactly that string, so distinct strings never look the same', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(decode(safeText(s))).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });

  it('strings that differ only in their control characters stay distinguishable', () => {
    const pair = fc
      .tuple(fc.array(fc.tuple(hostile, fc.option(control, { nil: undefined }), fc.option(control, { nil: undefined })), { minLength: 1, maxLength: 6 }))
      .map(([parts]) => [parts.map(([t, a]) => t + (a ?? '')).join(''), parts.map(([t, , b]) => t + (b ?? '')).join('')] as const);
    fc.assert(
      fc.property(pair, ([a, b]) => {
        if (a !== b) expect(safeText(a)).not.toBe(safeText(b));
      }),
      { numRuns: 3000 },
    );
    // The case a naive escape gets wrong: the six characters `\u0007` next to a real BEL.
    expect(safeText('\u0007\\u0007')).not.toBe(safeText('\\u0007\u0007'));
  });

  it('writes the attacks of the issue as visible escapes, and leaves ordinary text and Windows paths alone', () => {
    expect(safeText('\u001b]0;pwned\u0007 \u001b[2J')).toBe('\\u001b]0;pwned\\u0007 \\u001b[2J');
    expect(safeText('a\n::warning::x\r\u0000')).toBe('a\\n::warning::x\\r\\u0000');
    expect(safeText('admin\u202eexe.txt')).toBe('admin\\u202eexe.txt');
    expect(safeText('greets Ada — ünïcødé 日本 🚀')).toBe('greets Ada — ünïcødé 日本 🚀');
    expect(safeText('C:\\roles\\admin.md')).toBe('C:\\\\roles\\admin.md');
    expect(safeText('C:\\Roles\\Admin.md')).toBe('C:\\Roles\\Admin.md');
  });
});

describe('escapeControls', () => {
  it('for any string: no control character, one line, and a second pass changes nothing', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const shown = escapeControls(s);
        expect(shown).not.toMatch(RAW_CONTROL);
        expect(shown).not.toContain('\n');
        expect(escapeControls(shown)).toBe(shown);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('escapeStray', () => {
  it('keeps line breaks, tabs and (with colours) SGR sequences; escapes every other control', () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (s, colors) => {
        const shown = escapeStray(s, colors);
        const withoutOwn = colors ? shown.replace(/\u001b\[[0-9;]*m/g, '') : shown;
        expect(withoutOwn.replace(/[\n\t]/g, '')).not.toMatch(RAW_CONTROL);
      }),
      { numRuns: 2000 },
    );
    expect(escapeStray('\u001b[32m✓\u001b[0m t\u001b]0;x\u0007\nnext', true)).toBe('\u001b[32m✓\u001b[0m t\\u001b]0;x\\u0007\nnext');
    expect(escapeStray('\u001b[32m✓\u001b[0m', false)).toBe('\\u001b[32m✓\\u001b[0m');
    expect(escapeStray('tag \u{e0041} \u202e', true)).toBe('tag \\u{e0041} \\u202e');
  });
});

describe('the printable-ASCII short cut', () => {
  // The functions as they were before text of printable ASCII skipped the Unicode classes (which
  // V8 compiles on first use, ~10 ms of a command's start): the same answers, for any text.
  const CLASS = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\uFFFE\\uFFFF';
  const has = new RegExp(`[${CLASS}]`, 'u');
  const all = new RegExp(`[${CLASS}]`, 'gu');
  const safe = new RegExp(`[${CLASS}]|\\\\(?=[\\\\nrtu${CLASS}]|$)`, 'gu');
  const stray = new RegExp(`\\x1b\\[[0-9;]*m|[${CLASS}]`, 'gu');
  const reference = {
    hasUnsafe: (s: string) => has.test(s),
    escapeControls: (s: string) => (has.test(s) ? s.replace(all, escapeChar) : s),
    safeText: (s: string) => (s.includes('\\') || has.test(s) ? s.replace(safe, (m) => (m === '\\' ? '\\\\' : escapeChar(m))) : s),
    escapeStray: (s: string, colors: boolean) =>
      !has.test(s)
        ? s
        : s.replace(stray, (m) => (m === '\n' || m === '\t' ? m : m.startsWith('\x1b[') && m.endsWith('m') ? (colors ? m : reference.escapeControls(m)) : escapeChar(m))),
  };
  it('gives what the Unicode classes alone give, for ASCII-heavy and for hostile text', () => {
    const asciiish = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), fc.constantFrom('\\', 'u', 'n', '\x1b[1m', '\x1b[0m', '\u00e9', '\u200b', '\u2028')), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(asciiish, hostile), fc.boolean(), (s, colors) => {
        expect(hasUnsafe(s)).toBe(reference.hasUnsafe(s));
        expect(escapeControls(s)).toBe(reference.escapeControls(s));
        expect(safeText(s)).toBe(reference.safeText(s));
        expect(escapeStray(s, colors)).toBe(reference.escapeStray(s, colors));
      }),
      { numRuns: 4000 },
    );
  });
});

describe('jsonText', () => {
  it('for any data: valid JSON that reads back exactly, with no raw control character but its own line breaks', () => {
    const value = fc.dictionary(hostile, fc.oneof(hostile, fc.array(hostile, { maxLength: 3 }), fc.integer()), { maxKeys: 4 });
    fc.assert(
      fc.property(value, fc.constantFrom(0, 2), (v, indent) => {
        const text = jsonText(v, indent);
        expect(JSON.parse(text)).toEqual(v);
        expect(text.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
      }),
      { numRuns: 1000 },
    );
  });

  it('is JSON.stringify with every unsafe character but its line breaks and tabs written as \\u escapes, exactly', () => {
    // The reference, written out: the whole unsafe class searched, blanks put back as they were.
    const reference = (v: unknown, indent?: number): string =>
      JSON.stringify(v, null, indent).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/gu, (ch) =>
        ch === '\n' || ch === '\r' || ch === '\t' ? ch : Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
      );
    const value = fc.dictionary(hostile, fc.oneof(hostile, fc.array(hostile, { maxLength: 3 }), fc.integer()), { maxKeys: 4 });
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 0, 2, 4), (v, indent) => {
        expect(jsonText(v, indent)).toBe(reference(v, indent));
      }),
      { numRuns: 2000 },
    );
    // A long text with one unsafe character far from the start is still found; so is a DEL in ASCII.
    const long = { a: 'x'.repeat(100_000) + '→', b: ['\u2028'] };
    expect(jsonText(long, 2)).toBe(JSON.stringify(long, null, 2).replace('\u2028', '\\u2028'));
    expect(jsonText({ a: 'x'.repeat(1000) + '\x7f' })).toBe(`{"a":"${'x'.repeat(1000)}\\u007f"}`);
  });
});

describe('fitColumns', () => {
  it('never takes more columns than given, counting wide characters as two', () => {
    expect(fitColumns('running 1/2 · 日本語のテスト名', 20)).toBe('running 1/2 · 日本…');
    expect(fitColumns('short', 20)).toBe('short');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 2, max: 50 }), (s, columns) => {
        const width = [...fitColumns(s, columns)].reduce((n, ch) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f000}-\u{10ffff}]/u.test(ch) ? 2 : 1), 0);
        expect(width).toBeLessThanOrEqual(columns);
      }),
      { numRuns: 1000 },
    );
  });
});
