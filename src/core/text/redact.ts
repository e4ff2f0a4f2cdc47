/**
 * Secrets out of everything roleflow shows, in one place. A redactor is built once per set of
 * secrets and has two uses:
 * - `text(s)` for what people read: every form a secret takes in printed text is masked — raw,
 *   URL-encoded, JSON-escaped (inside a JSON string), XML-escaped (inside XML text or an
 *   attribute) and escaped as text roleflow does not control is shown (`safe-text.ts`) — longest first, so a secret that contains another is hidden whole.
 * - `values(v)` for data about to be serialised (JSON on stdout, report files): only its string
 *   values pass through `text`, never its keys, so a secret that is a common word ("test",
 *   "summary") can mask a word inside a value but never rename a key and break what a program
 *   reads. What holds no secret is returned as it is, not copied.
 * Serialised output is not masked again as text: that is what would break its structure.
 */

import { escapeControls, jsonText, safeText } from './safe-text.js';

export const MASK = '***';

/**
 * Below this length a secret is likely to occur inside ordinary words: it is still masked
 * everywhere in text, and the user is warned that it may be.
 */
export const SHORT_SECRET_LENGTH = 8;

export interface Redactor {
  /** True when there is no secret: both methods return their argument. */
  readonly none: boolean;
  text(text: string): string;
  /**
   * `value` with every string value masked. `keys: true` masks object keys too: only for data
   * whose keys are not roleflow's (a flow's outputs, service names), where no program relies on them.
   */
  values<T>(value: T, options?: { keys?: boolean }): T;
  /**
   * Whether JSON text as `jsonText` writes it may hold a secret in one of its strings. When it
   * cannot, it is exactly the text of the same value passed through `values`: a large document can
   * be serialised as it is and checked, instead of walked value by value first.
   */
  mayHoldSecret(json: string): boolean;
}

/**
 * Environment variables whose values are credentials, by name (`ROLEFLOW_TOKEN`, `API_SECRET`,
 * `DB_PASSWORD`…): the CLI redacts their values from every output, and the Action masks them in
 * the workflow log. The one rule for both.
 */
export function isSecretVariable(name: string): boolean {
  return /TOKEN|SECRET|PASSWORD/i.test(name);
}

/**
 * The values of the secret variables in `env`, for a redactor: those secret by their name, and
 * `tokenVariables` (every configured tenant's `token_env`, whatever it is called: a Role on one
 * tenant may hold another's token). Values under 6 characters are left out: masking them would
 * rewrite ordinary words everywhere (the tenant token is masked whatever its length, as the
 * client's own secret).
 */
export function environmentSecrets(env: Record<string, string | undefined>, tokenVariables: Iterable<string> = []): string[] {
  const tokens = new Set(tokenVariables);
  const found: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (value && (isSecretVariable(key) || tokens.has(key)) && value.length >= 6) found.push(value);
  }
  return found;
}

const NOTHING_TO_HIDE: Redactor = { none: true, text: (text) => text, values: (value) => value, mayHoldSecret: () => false };

export function makeRedactor(secrets: Iterable<string | undefined>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponentSafe(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(xmlText(secret));
    forms.add(xmlAttribute(secret));
    forms.add(safeText(secret));
    forms.add(escapeControls(secret));
  }
  if (forms.size === 0) return NOTHING_TO_HIDE;
  const longestFirst = [...forms].sort((a, b) => b.length - a.length);
  const text = (value: string): string => {
    let out = value;
    for (const form of longestFirst) if (out.includes(form)) out = out.split(form).join(MASK);
    return out;
  };
  // JSON escapes a string character by character, so a string holding a form holds it escaped.
  // A lone surrogate is the exception (JSON.stringify escapes it alone, not as half of a pair):
  // a form with one (no secret from the environment or the command line has one) is always suspected.
  const inJson = [...new Set(longestFirst.map((form) => jsonText(form).slice(1, -1)))];
  const suspectAll = longestFirst.some((form) => LONE_SURROGATE.test(form));
  return {
    none: false,
    text,
    values: (value, options) => redactValues(value, text, options?.keys === true),
    mayHoldSecret: (json) => suspectAll || inJson.some((form) => json.includes(form)),
  };
}

/** In a `u` pattern a surrogate pair is one code point: only a lone surrogate is in this range (as `\p{Cs}`, without its lookup). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function redactValues<T>(value: T, text: (s: string) => string, keys: boolean): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const clean = walk(item);
        if (clean !== item) (copy ??= [...v])[i] = clean;
      }
      return copy ?? v;
    }
    if (v === null || typeof v !== 'object') return v;
    const source = v as Record<string, unknown>;
    const names = Object.keys(source);
    let copy: [string, unknown][] | undefined;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const cleanName = keys ? text(name) : name;
      const clean = walk(source[name]);
      // The entries before this one were clean: copied as they are, in their order.
      if (!copy && (cleanName !== name || clean !== source[name])) copy = names.slice(0, i).map((n) => [n, source[n]]);
      copy?.push([cleanName, clean]);
    }
    return copy ? Object.fromEntries(copy) : v;
  };
  return walk(value) as T;
}

function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function xmlAttribute(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

// A lone surrogate cannot be URL-encoded; such a secret has no URL-encoded form to hide.
function encodeURIComponentSafe(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value;
  }
}

// `serve --token T` takes a secret as a flag value: an error printed before the command runs must not echo it.
export function argvSecrets(argv: readonly string[]): string[] {
  const found: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--token' && argv[i + 1]) found.push(argv[i + 1]!);
    else if (arg.startsWith('--token=') && arg.length > 8) found.push(arg.slice(8));
  });
  return found;
}

/** `text` with every form of these secrets masked: for the lines printed before a command runs. */
export function redactAll(text: string, secrets: readonly string[]): string {
  return makeRedactor(secrets).text(text);
}
