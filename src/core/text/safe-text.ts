import { Buffer } from 'node:buffer';
import { onFirstUse } from './first-use.js';

/**
 * Text that roleflow does not control — test names, skip reasons, tenant messages and error
 * bodies, WebSocket frames, Role names, what a config file says — is shown through these, on the
 * console and in every report. Printed raw, a control character could retitle the terminal
 * (OSC), clear it, hide text, end an XML document or forge a line: a new line starting with
 * `::warning::` is a GitHub workflow command. Each unsafe character is written as an escape
 * (`\u001b`, `\n`), so the text stays one line, readable, and free of control characters.
 *
 * Unsafe: C0 and C1 controls and DEL (`\p{Cc}`, tab and line breaks included), format characters
 * (`\p{Cf}`: bidi overrides and isolates, zero-width characters, BOM), the line and paragraph
 * separators U+2028/U+2029, lone surrogates, and the noncharacters U+FFFE/U+FFFF that XML 1.0
 * cannot hold.
 */

const UNSAFE_CLASS = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\uFFFE\\uFFFF';
// The expressions over that class (`onFirstUse`: printable ASCII, nearly all a run prints, never needs them).
const UNSAFE = onFirstUse(() => new RegExp(`[${UNSAFE_CLASS}]`, 'gu'));
const HAS_UNSAFE = onFirstUse(() => new RegExp(`[${UNSAFE_CLASS}]`, 'u'));
// `safeText`: a backslash is doubled where it could be read as the start of an escape.
const SAFE_TEXT = onFirstUse(() => new RegExp(`[${UNSAFE_CLASS}]|\\\\(?=[\\\\nrtu${UNSAFE_CLASS}]|$)`, 'gu'));
// In JSON.stringify's text a line break or tab can only be its own indentation, which stays: an
// indented report with no other unsafe character is not rewritten at all.
const JSON_UNSAFE = onFirstUse(() => new RegExp(`(?![\\n\\r\\t])[${UNSAFE_CLASS}]`, 'gu'));
const JSON_HAS_UNSAFE = onFirstUse(() => new RegExp(`(?![\\n\\r\\t])[${UNSAFE_CLASS}]`, 'u'));
// SGR sequences (colours) that roleflow itself writes, else one unsafe character.
const STRAY = onFirstUse(() => new RegExp(`\\x1b\\[[0-9;]*m|[${UNSAFE_CLASS}]`, 'gu'));
/** Runs of characters other than printable ASCII and the line break: the only places an unsafe one can be. */
const BEYOND_ASCII = /[^\x20-\x7e\n]+/g;
/**
 * A character other than printable ASCII: text without one (nearly everything printed) holds no
 * unsafe character, and is answered without the Unicode classes above.
 */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;
/** The same, the line break and tab aside: what `escapeStray` keeps. */
const NOT_PRINTABLE_LINES = /[^\x20-\x7e\n\t]/;

/** True when `text` holds a character that `escapeControls` would escape. */
export function hasUnsafe(text: string): boolean {
  return NOT_PRINTABLE_ASCII.test(text) && HAS_UNSAFE().test(text);
}

/** `\n`, `\r`, `\t`, else `\u001b` (four hex digits), or `\u{e0001}` beyond the BMP. */
export function escapeChar(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Every unsafe character escaped; backslashes as they are. One line, no control character, and
 * idempotent: text that went through it once (a report's messages) is unchanged by another pass.
 * For messages, which are read, not compared.
 */
export function escapeControls(text: string): string {
  return hasUnsafe(text) ? text.replace(UNSAFE(), escapeChar) : text;
}

/**
 * Like `escapeControls`, and a backslash that could be read as the start of an escape is doubled
 * (`\\u001b` is the six characters a file held, `\u001b` the ESC a tenant sent), so two names
 * that differ only in control characters never look the same. For names and ids: what a user
 * compares. Text with no backslash before `n`, `r`, `t`, `u` or `\` is unchanged but for its
 * unsafe characters, so a Windows path reads as it is.
 */
export function safeText(text: string): string {
  // Printable ASCII holds no unsafe character: only its backslashes may need doubling.
  if (!NOT_PRINTABLE_ASCII.test(text)) return text.includes('\\') ? text.replace(ASCII_BACKSLASH, '\\\\') : text;
  return text.replace(SAFE_TEXT(), (m) => (m === '\\' ? '\\\\' : escapeChar(m)));
}

/** SAFE_TEXT's backslash in printable ASCII, where no unsafe character can follow it. */
const ASCII_BACKSLASH = /\\(?=[\\nrtu]|$)/g;

/**
 * Lines that roleflow composed (a report, a list of problems) and that may still carry text it
 * does not control: line breaks and tabs stay, and so do the colour sequences roleflow writes
 * when `colors` is on; every other unsafe character is escaped. The last line of defence of
 * what commands print: each part should have gone through `safeText` or `escapeControls` already.
 */
export function escapeStray(text: string, colors: boolean): string {
  if (!NOT_PRINTABLE_LINES.test(text) || !HAS_UNSAFE().test(text)) return text;
  return text.replace(STRAY(), (m) => {
    if (m === '\n' || m === '\t') return m;
    if (m.startsWith('\x1b[') && m.endsWith('m')) return colors ? m : escapeControls(m);
    return escapeChar(m);
  });
}

/**
 * `JSON.stringify(value)` with no raw control character in it: the string escapes JSON.stringify
 * leaves out (DEL, C1, format characters, U+2028/U+2029) written as `\uXXXX`, which every JSON
 * reader reads back as the same character, so the data stays exact.
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  // (undefined for a value JSON has no text for, as JSON.stringify gives it.)
  if (typeof text !== 'string' || isAsciiWithoutDel(text)) return text;
  return hasJsonUnsafe(text) ? text.replace(JSON_UNSAFE(), jsonEscape) : text;
}

/**
 * Text JSON.stringify wrote holds no raw C0 control but its indentation's line breaks (it escapes
 * every one in strings): when it is ASCII, the one unsafe character it can hold is DEL. Both
 * checks are far quicker than the search through the whole class (a plan's JSON is 100 MB).
 */
function isAsciiWithoutDel(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\x7f');
}

// A report is megabytes of mostly ASCII: a scan for what is not ASCII is quick, one with the
// Unicode classes over all of it is not (~25 ns a character), so only the runs found are checked.
function hasJsonUnsafe(text: string): boolean {
  BEYOND_ASCII.lastIndex = 0;
  for (let run = BEYOND_ASCII.exec(text); run !== null; run = BEYOND_ASCII.exec(text)) {
    if (JSON_HAS_UNSAFE().test(run[0])) return true;
  }
  return false;
}

// Outside strings JSON holds only ASCII punctuation and blanks: every unsafe character left by
// JSON.stringify is inside a string, where a \u escape (a surrogate pair beyond the BMP) is exact.
function jsonEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * A line cut to at most `columns` terminal columns (a character of a wide script or an emoji
 * counts two), ending in `…` when cut: a progress line that wraps cannot be wiped by `\r` and
 * would stay on the screen.
 */
export function fitColumns(text: string, columns: number): string {
  let width = 0;
  let at = 0;
  // Where the text would be cut if the next character did not fit with the ellipsis after it.
  let cut = 0;
  for (const ch of text) {
    const w = isWide(ch.codePointAt(0)!) ? 2 : 1;
    if (width + w > columns) return `${text.slice(0, cut)}…`;
    width += w;
    at += ch.length;
    if (width <= columns - 1) cut = at;
  }
  return text;
}

function isWide(code: number): boolean {
  return code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || code >= 0x1f000);
}
