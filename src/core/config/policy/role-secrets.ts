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
 * The secrets `${vars}` put into role files, as `tenant` gets them: a Role holding a token through
 * a config variable is sent and shown as one written into it. `rendered`: `files` (some of them)
 * rendered for the tenant; only those rendering changed are scanned, and what their text held as
 * written is roleSecretIssues' to say, not said again here.
 */
export function renderedSecretIssues(files: readonly RoleFile[], rendered: readonly RoleFile[], tenant: string, scanner: SecretScanner): Issue[] {
  const asWritten = new Set(files);
  const changed = rendered.filter((f) => !asWritten.has(f));
  if (changed.length === 0) return [];
  const names = new Set(changed.map((f) => f.file));
  const key = (i: Issue): string => `${i.file}:${i.line}:${i.col}:${i.message}`;
  const said = new Set(roleSecretIssues(files.filter((f) => names.has(f.file)), scanner).map(key));
  return roleSecretIssues(changed, scanner)
    .filter((i) => !said.has(key(i)))
    .map((i) => ({ ...i, message: `${i.message} (once \${vars} are put in for tenant ${tenant})` }));
}
