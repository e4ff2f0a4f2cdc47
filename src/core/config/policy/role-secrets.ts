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

/**
 * The secrets in role files as `tenant` gets them, `${vars}` put in (`rendered`): a Role holding
 * a token through a config variable is sent and shown as one written into it. `written`: the
 * issues of the files as written, left out here (said once).
 */
export function renderedSecretIssues(rendered: readonly RoleFile[], tenant: string, scanner: SecretScanner, written: readonly Issue[] = []): Issue[] {
  const key = (i: Issue): string => `${i.file}:${i.line}:${i.col}:${i.message}`;
  const said = new Set(written.map(key));
  return roleSecretIssues(rendered, scanner)
    .filter((i) => !said.has(key(i)))
    .map((i) => ({ ...i, message: `${i.message} (once \${vars} are put in for tenant ${tenant})` }));
}
