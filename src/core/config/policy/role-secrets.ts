import type { Issue } from '../../errors.js';
import type { RoleFile } from '../../roles/index.js';
import { lintRoleFile } from './role-rules.js';
import type { SecretScanner } from './secrets.js';
import { emptyPolicy } from './types.js';

/**
 * The secrets in role files as located problems: what `validate`, `plan`, `apply` and `promote`
 * stop on (exit 1, nothing sent, nothing written), as `lint`'s `secrets` rule finds them.
 */
export function roleSecretIssues(files: readonly RoleFile[], scanner: SecretScanner): Issue[] {
  const none = emptyPolicy().roles;
  return files.flatMap((file) => lintRoleFile(file, none, scanner).map((f) => ({ file: f.file, line: f.line, col: f.column, message: `secrets: ${f.message}` })));
}
