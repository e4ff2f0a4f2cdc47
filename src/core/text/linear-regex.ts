import { RE2JS } from 're2js';

/**
 * A user's regular expression (`matches`, a schema's `pattern`/`patternProperties`, `fail_when`,
 * `--grep`), run by RE2JS: time linear in the text whatever the pattern, so no pattern can hold a
 * run (and its Ctrl-C) for minutes on a tenant's answer. Written in JavaScript syntax; what a
 * linear engine cannot run (lookahead, backreferences) is refused with the reason, never handed
 * to the backtracking engine.
 */
export interface UserRegex {
  test(text: string): boolean;
  /** The first match at or after `from` (UTF-16 offsets, as String's), or undefined. */
  find(text: string, from?: number): { index: number; length: number } | undefined;
  readonly source: string;
  readonly flags: string;
  /** `/source/flags`, as a RegExp prints. */
  toString(): string;
}

export type CompiledRegex = { ok: true; regex: UserRegex } | { ok: false; error: string };

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
/** Flags that change nothing for a yes/no test, or that are how text is read anyway (code points). */
const NEUTRAL_FLAGS = new Set(['u', 'g', 'y', 'd']);

/** JavaScript's `\s` (RE2's is ASCII only): inside a class, and as a class. */
const JS_SPACE = '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** JavaScript's `.` without the s flag: anything but a line terminator (RE2's: anything but `\n`). */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** Compile `source` with `flags` (JavaScript's letters), or say in one line why it cannot run. */
export function compileUserRegex(source: string, flags = ''): CompiledRegex {
  if (flags.includes('v')) return refuse(source, 'the v flag');
  try {
    new RegExp(source, flags);
  } catch (err) {
    // V8's message repeats the pattern: `Invalid regular expression: /(/: Unterminated group`.
    return { ok: false, error: `invalid regular expression ${JSON.stringify(source)}: ${reason(err).replace(/^Invalid regular expression: \/.*\/\w*: /s, '')}` };
  }
  let bits = RE2JS.LOOKBEHINDS;
  for (const flag of flags) if (!NEUTRAL_FLAGS.has(flag)) bits |= FLAG_BITS[flag] ?? 0;
  const unsupported = unsupportedSyntax(source);
  if (unsupported !== undefined) return refuse(source, unsupported);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(asJavaScript(RE2JS.translateRegExp(source), flags.includes('s')), bits);
  } catch (err) {
    return refuse(source, reason(err).replace(/^error parsing regexp: /, ''));
  }
  const shown = `/${source}/${flags}`;
  const find = (text: string, from = 0): { index: number; length: number } | undefined => {
    const matcher = compiled.matcher(text);
    return matcher.find(from) ? { index: matcher.start(), length: matcher.end() - matcher.start() } : undefined;
  };
  return { ok: true, regex: { source, flags, test: (text) => compiled.test(text), find, toString: () => shown } };
}

function refuse(source: string, what: string): CompiledRegex {
  return {
    ok: false,
    error: `regular expression ${JSON.stringify(source)}: ${what} is not supported (user patterns run in a linear-time engine, RE2 syntax: no lookahead, no backreferences)`,
  };
}

/** The first construct of `source` a linear engine cannot run, named; undefined when there is none. */
function unsupportedSyntax(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `the backreference \\${next}`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'the backreference \\k<…>';
      i++;
    } else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (!inClass && ch === '(' && source[i + 1] === '?') {
      const kind = source[i + 2];
      if (kind === '=') return 'the lookahead (?=…)';
      if (kind === '!') return 'the negative lookahead (?!…)';
    }
  }
  return undefined;
}

/**
 * RE2 syntax (as RE2JS.translateRegExp gives) that means what the JavaScript pattern meant where
 * the two differ in ways users notice: `\s` (Unicode spaces) and `.` (no line terminator).
 */
function asJavaScript(re2: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < re2.length; i++) {
    const ch = re2[i]!;
    if (ch === '\\') {
      const next = re2[i + 1] ?? '';
      i++;
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += ch + next;
    } else {
      if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      out += ch === '.' && !inClass && !dotAll ? JS_DOT : ch;
    }
  }
  return out;
}

function reason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}
