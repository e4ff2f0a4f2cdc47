/**
 * `${env:NAME}` in test inputs (the values of the variables a file lists as secrets are then
 * redacted by `core/text/redact.ts`).
 * `$${` writes a literal `${`; any other `${…}` is an error, so a typo never reaches the flow as text.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Piece = { text: string } | { env: string };

/** Split a value into literal text and variable references, or say what is malformed. */
export function parseEnvRefs(value: string): { ok: true; pieces: Piece[] } | { ok: false; error: string } {
  // Without `${` (nearly every input) the value is its own text: not read a character at a time.
  if (!value.includes('${')) return { ok: true, pieces: value === '' ? [] : [{ text: value }] };
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
