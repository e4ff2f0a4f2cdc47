/**
 * `${env:NAME}` in test inputs, and redaction of secret values from everything reported.
 * `$${` writes a literal `${`; any other `${…}` is an error, so a typo never reaches the flow as text.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Piece = { text: string } | { env: string };

/** Split a value into literal text and variable references, or say what is malformed. */
export function parseEnvRefs(value: string): { ok: true; pieces: Piece[] } | { ok: false; error: string } {
  const pieces: Piece[] = [];
  let text = '';
  let i = 0;
  while (i < value.length) {
    if (value.startsWith('$${', i)) {
      text += '${';
      i += 3;
      continue;
    }
    if (!value.startsWith('${', i)) {
      text += value[i];
      i += 1;
      continue;
    }
    const end = value.indexOf('}', i);
    if (end < 0) return { ok: false, error: `unterminated "\${" in ${JSON.stringify(value)}: write \${env:NAME}` };
    const ref = value.slice(i + 2, end);
    const name = ref.startsWith('env:') ? ref.slice(4) : undefined;
    if (name === undefined || !NAME.test(name)) {
      return { ok: false, error: `invalid reference "\${${ref}}": write \${env:NAME} (or $\${ for a literal \${)` };
    }
    if (text) pieces.push({ text });
    pieces.push({ env: name });
    text = '';
    i = end + 1;
  }
  if (text) pieces.push({ text });
  return { ok: true, pieces };
}

export interface ExpandedInputs {
  values: Record<string, string>;
  /** Values of the declared secret variables that are set: redact them from every report. */
  secrets: string[];
  /** Variables referenced but not set: the test cannot run. */
  missing: string[];
}

/**
 * Resolve `${env:NAME}` in a test's inputs. An unset variable is listed in `missing` (an error
 * for that test, never an empty string sent to the flow). Inputs were checked at load time; a
 * malformed value here is reported as missing under its own text, so nothing throws.
 */
export function expandInputs(
  inputs: Record<string, string>,
  env: Record<string, string | undefined>,
  secretNames: readonly string[],
): ExpandedInputs {
  const values: Record<string, string> = {};
  const missing = new Set<string>();
  for (const [key, raw] of Object.entries(inputs)) {
    const parsed = parseEnvRefs(raw);
    if (!parsed.ok) {
      missing.add(raw);
      continue;
    }
    let out = '';
    for (const piece of parsed.pieces) {
      if ('text' in piece) out += piece.text;
      else {
        const v = Object.hasOwn(env, piece.env) ? env[piece.env] : undefined;
        if (v === undefined) missing.add(piece.env);
        else out += v;
      }
    }
    values[key] = out;
  }
  const secrets = secretNames
    .map((name) => (Object.hasOwn(env, name) ? env[name] : undefined))
    .filter((v): v is string => v !== undefined && v !== '');
  return { values, secrets, missing: [...missing] };
}

/** `text` with every secret in it replaced by `***`; `none` when there is nothing to hide. */
export type Redactor = ((text: string) => string) & { readonly none: boolean };

const MASK = '***';
const NOTHING_TO_HIDE: Redactor = Object.assign((text: string) => text, { none: true });

/**
 * A redactor for a run's secrets, built once: every secret value is replaced with `***`, longest
 * first (so a secret that contains another is hidden whole), and so is the JSON-escaped form a
 * value takes inside a JSON report. Reporters redact before XML-escaping.
 */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === '') continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  if (forms.size === 0) return NOTHING_TO_HIDE;
  const longestFirst = [...forms].sort((a, b) => b.length - a.length);
  const redact = (text: string): string => {
    let out = text;
    for (const form of longestFirst) if (out.includes(form)) out = out.split(form).join(MASK);
    return out;
  };
  return Object.assign(redact, { none: false });
}
