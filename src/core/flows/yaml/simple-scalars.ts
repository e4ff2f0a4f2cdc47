import { onFirstUse } from '../../text/first-use.js';
import { couldBeNumber } from '../../roles/simple-front-matter.js';

/**
 * The scalars `simple-yaml.ts` reads without the YAML parser, and its way of saying "not this
 * shape": `decline()` throws `DECLINE`, which `readSimpleYaml` turns into `undefined`.
 */

export const DECLINE = Symbol('decline');

export function decline(): never {
  throw DECLINE;
}

/** Words YAML 1.2's core schema reads as a boolean or null (in some cases; declined in any). */
export const RESERVED = /^(?:true|false|null|~)$/i;
const STARTS_PLAIN = onFirstUse(() => /^[\p{L}\p{N}]/u);
/** STARTS_PLAIN for a value starting with an ASCII character, without its Unicode classes. */
const STARTS_PLAIN_ASCII = /^[A-Za-z0-9]/;
const DIGITS = /^[0-9]{1,15}$/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t' };

/**
 * A quoted scalar starting at `at` and closed before `lineEnd`: its value and the offset after its
 * closing quote. Double-quoted: no escape but `\\ \" \/ \n \t`; single-quoted: `''` is a quote.
 */
export function quotedScalar(text: string, at: number, lineEnd: number): { value: string; end: number } {
  const quote = text[at]!;
  // Most quoted scalars hold no escape: up to the closing quote in one slice, not a character at a time.
  const close = text.indexOf(quote, at + 1);
  if (close !== -1 && close < lineEnd) {
    const body = text.slice(at + 1, close);
    if (quote === '"' ? !body.includes('\\') : text[close + 1] !== "'") return { value: body, end: close + 1 };
  }
  let value = '';
  for (let pos = at + 1; pos < lineEnd; pos++) {
    const c = text[pos]!;
    if (quote === "'") {
      if (c !== "'") value += c;
      else if (text[pos + 1] === "'") value += text[++pos];
      else return { value, end: pos + 1 };
    } else if (c === '"') {
      return { value, end: pos + 1 };
    } else if (c === '\\') {
      const escaped = ESCAPES[text[++pos]!];
      if (escaped === undefined) decline();
      value += escaped;
    } else {
      value += c;
    }
  }
  return decline();
}

/** A plain scalar's value, when it is certainly a string, `true`, `false` or a decimal number. */
export function plainValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (DIGITS.test(raw)) return Number(raw);
  const startsPlain = raw !== '' && (raw.charCodeAt(0) < 0x80 ? STARTS_PLAIN_ASCII.test(raw) : STARTS_PLAIN().test(raw));
  if (!startsPlain || RESERVED.test(raw) || raw.includes(':') || raw.includes('#') || couldBeNumber(raw)) {
    return decline();
  }
  return raw;
}
