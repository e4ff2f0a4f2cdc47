/**
 * The form both a Role and an output take before `not_leaks` compares them, so that the usual
 * ways to disguise a copied prompt change nothing: HTML entities are decoded (`&lt;`, `&#x41;`),
 * each character and its combining marks are Unicode NFKC (fullwidth `Ａ` is `A`, `e` + U+0301
 * is `é`) and case-folded, zero-width characters and soft hyphens are dropped, and every run of
 * whitespace is one space. `origin` maps each character of the result to its index in the text.
 */
export function normalise(text: string): { text: string; origin: number[] } {
  const out: string[] = [];
  const origin: number[] = [];
  let inSpace = false;
  const emit = (piece: string, at: number): void => {
    for (const ch of piece) {
      if (INVISIBLE.has(ch)) continue;
      if (SPACE.test(ch)) {
        if (!inSpace) {
          out.push(' ');
          origin.push(at);
        }
        inSpace = true;
      } else {
        out.push(ch);
        origin.push(at);
        inSpace = false;
      }
    }
  };
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    // ASCII but `&`, with no combining mark after it: itself, folded (the bulk of any text,
    // without a normalize call; combining marks start at U+0300).
    if (code < 0x80 && code !== 0x26 && !(text.charCodeAt(i + 1) >= 0x300)) {
      emit(code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : text[i]!, i);
      i += 1;
      continue;
    }
    const entity = code === 0x26 ? decodeEntity(text, i) : undefined;
    const start = i;
    let cluster: string;
    if (entity !== undefined) {
      cluster = entity.text;
      i = entity.end;
    } else {
      // A character and the combining marks after it (an invisible one between them dropped
      // already): NFKC composes them.
      const first = String.fromCodePoint(text.codePointAt(i)!);
      i += first.length;
      cluster = first;
      for (let next = nextChar(text, i); next !== undefined && (MARK.test(next) || INVISIBLE.has(next)); next = nextChar(text, i)) {
        if (!INVISIBLE.has(next)) cluster += next;
        i += next.length;
      }
    }
    emit(fold(cluster), start);
  }
  return { text: out.join(''), origin };
}

function nextChar(text: string, at: number): string | undefined {
  return at < text.length ? String.fromCodePoint(text.codePointAt(at)!) : undefined;
}

/** NFKC, then full case folding as JavaScript can (`ß` and `ẞ` are `ss`); NFKC again for what folding decomposed. */
function fold(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

const MARK = /^\p{M}$/u;
const SPACE = /^\s$/u;
/** Zero-width characters, the soft hyphen and other invisible format characters: dropped. */
const INVISIBLE = new Set(['\u00ad', '\u034f', '\u061c', '\u115f', '\u1160', '\u17b4', '\u17b5', '\u180e', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u3164', '\uffa0']);

/** The named entities an HTML-escaped copy of a prompt holds; numeric ones are all decoded. */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad', zwsp: '\u200b', zwnj: '\u200c', zwj: '\u200d',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  copy: '©', reg: '®', trade: '™', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', deg: '°', times: '×', divide: '÷',
  ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', colon: ':', semi: ';', comma: ',', period: '.', excl: '!', quest: '?', num: '#',
  dollar: '$', percnt: '%', lpar: '(', rpar: ')', ast: '*', plus: '+', sol: '/', bsol: '\\', lsqb: '[', rsqb: ']', lcub: '{', rcub: '}',
  verbar: '|', grave: '`', tilde: '~', lowbar: '_', equals: '=', newline: '\n', tab: '\t', hyphen: '‐', dash: '‐',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/y;

/** The entity at `at` (a `&`) decoded, and where it ends; undefined when it is none. */
function decodeEntity(text: string, at: number): { text: string; end: number } | undefined {
  ENTITY.lastIndex = at;
  const m = ENTITY.exec(text);
  if (!m) return undefined;
  const end = at + m[0].length;
  if (m[3] !== undefined) {
    const named = NAMED[m[3]] ?? NAMED[m[3].toLowerCase()];
    return named === undefined ? undefined : { text: named, end };
  }
  const code = m[1] !== undefined ? Number(m[1]) : parseInt(m[2]!, 16);
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? { text: String.fromCodePoint(code), end } : undefined;
}
