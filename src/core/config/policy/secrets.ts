import { isSecretVariable, MASK } from '../../text/redact.js';

/**
 * Secrets in a Role's text (PRODUCT.md "Lint and policy"): a Role is sent to a tenant and shown
 * in plans and pull-request comments, so a credential in it is always an error. Two kinds are
 * looked for: the formats of common keys (fixed patterns, each linear to match), and the values
 * this run knows are secret — every configured tenant's token and every secret variable of the
 * environment (`isSecretVariable`, the rule the redactor uses).
 */
const KEY_FORMATS: readonly { kind: string; regex: RegExp }[] = [
  { kind: 'an AWS access key id', regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { kind: 'a GitHub token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: 'an API key (sk-…)', regex: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Slack token', regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a private key', regex: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----/g },
  { kind: 'a JSON Web Token', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

/** Known secret values shorter than this are not looked for: they would be found in ordinary words. */
const MIN_KNOWN_LENGTH = 8;

export interface SecretHit {
  index: number;
  length: number;
  /** What it is, in words: `an AWS access key id`, `the value of ROLEFLOW_TOKEN`. Never the secret. */
  kind: string;
}

export interface SecretScanner {
  find(text: string): SecretHit[];
  /** Whether `text` holds any (a cheaper `find(text).length > 0`). */
  holds(text: string): boolean;
  /** `text` with every secret found replaced by `***` (overlapping ones as one). */
  mask(text: string): string;
}

/**
 * The scanner of this run: the key formats, and the values of `env`'s secret variables and of the
 * variables the config names as tokens (`token_env`, `ROLEFLOW_TOKEN`), by variable name.
 */
export function secretScanner(env: Record<string, string | undefined>, config?: { tenants: Record<string, { tokenEnv: string }> }): SecretScanner {
  // ROLEFLOW_TOKEN (the default token_env) is a secret variable by its name.
  const names = new Set(Object.values(config?.tenants ?? {}).map((t) => t.tokenEnv));
  const known = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_KNOWN_LENGTH) continue;
    if (names.has(name) || isSecretVariable(name)) if (!known.has(value)) known.set(value, name);
  }
  const values = [...known].sort((a, b) => b[0].length - a[0].length);
  const find = (text: string): SecretHit[] => {
    const hits: SecretHit[] = [];
    for (const [value, name] of values) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) hits.push({ index: i, length: value.length, kind: `the value of ${name}` });
    }
    for (const { kind, regex } of KEY_FORMATS) {
      regex.lastIndex = 0;
      for (const m of text.matchAll(regex)) hits.push({ index: m.index, length: m[0].length, kind });
    }
    // One hit per place: a token that is also a known value is named once, by its variable.
    const seen = new Set<number>();
    return hits.sort((a, b) => a.index - b.index).filter((h) => (seen.has(h.index) ? false : (seen.add(h.index), true)));
  };
  const mask = (text: string): string => {
    let out = '';
    let at = 0;
    for (const hit of find(text)) {
      if (hit.index + hit.length <= at) continue;
      out += `${text.slice(at, Math.max(at, hit.index))}${hit.index >= at ? MASK : ''}`;
      at = hit.index + hit.length;
    }
    return out + text.slice(at);
  };
  return { find, holds: (text) => find(text).length > 0, mask };
}
