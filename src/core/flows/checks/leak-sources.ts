import { renderVarsWithOrigin, type RoleFile, type TenantVars } from '../../roles/index.js';
import type { RoleText } from './leaks.js';

/**
 * What `not_leaks` looks for on one tenant: each Role's content as that tenant gets it, rendered
 * with its variables, so a leak of `${vars.product}` is caught as the product's name. Every role
 * file is a source, also one whose `tenants:` leaves that tenant out: it is not on that tenant, but
 * its text is still secret. A content with a `${vars.NAME}` the tenant does not declare (which
 * `validate` reports) is looked for as written. A leak names the line of the file it came from.
 */
export function leakTexts(files: readonly RoleFile[], vars: TenantVars): RoleText[] {
  return files.map((file) => {
    const text: RoleText = { name: file.name, file: file.file, content: file.content, firstLine: file.contentLine ?? 1 };
    const rendered = renderVarsWithOrigin(file.content, vars);
    if (rendered.problems.length > 0 || rendered.text === file.content) return text;
    return { ...text, content: rendered.text, written: { content: file.content, origin: rendered.origin } };
  });
}
