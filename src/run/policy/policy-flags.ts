import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { parseAllow, secretScanner, type Allow, type SecretScanner } from '../../core/config/policy/index.js';

/** `--allow` values parsed; a malformed one is a usage error naming it. */
export function parseAllows(values: readonly string[]): Allow[] {
  return values.map((value) => {
    const allow = parseAllow(value);
    if (typeof allow === 'string') throw new RoleflowError(allow, 'usage');
    return allow;
  });
}

/** The secrets of this run: key formats, the configured tokens' values, the secret variables'. */
export function runSecrets(env: Record<string, string | undefined>, config: Config): SecretScanner {
  return secretScanner(env, config);
}
