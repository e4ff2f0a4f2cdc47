/**
 * How a flows file names the tenant's Roles: a step's `role: NAME`, and `${role.NAME.content}` or
 * `${role.NAME.description}` in any output string. Pure: the syntax, and reading it out of strings.
 */

/** A Role name a flows file can name: letters, digits, ".", "_", "-"; not starting with "." or "-". */
export const ROLE_NAME_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9._-]*$';
const ROLE_NAME = new RegExp(ROLE_NAME_PATTERN);

export const ROLE_FIELDS = ['content', 'description'] as const;
export type RoleField = (typeof ROLE_FIELDS)[number];

/** A Role's fields as a flow reads them. */
export interface RoleText {
  content: string;
  description: string;
}

/** The Role of this name on the tenant, or undefined when it has none. */
export type RoleLookup = (name: string) => RoleText | undefined;

/** Every `${…}` of an output string; the ones starting with `role.` name a Role. */
export const TEMPLATE = /\$\{([^}]*)\}/g;
const ROLE_PREFIX = 'role.';

export type RoleTemplate = { name: string; field: RoleField } | { problem: string };

/**
 * What the inside of one `${…}` says: undefined when it is no Role template (an input), else the
 * Role and field, or what is wrong with it. The field is after the last ".", so a name may hold dots.
 */
export function readRoleTemplate(inner: string): RoleTemplate | undefined {
  if (!inner.startsWith(ROLE_PREFIX)) return undefined;
  const written = `\${${inner}}`;
  const rest = inner.slice(ROLE_PREFIX.length);
  const dot = rest.lastIndexOf('.');
  if (dot === -1) return { problem: `${written}: expected \${role.NAME.content} or \${role.NAME.description}` };
  const name = rest.slice(0, dot);
  const field = rest.slice(dot + 1);
  if (!ROLE_NAME.test(name)) return { problem: `${written}: ${JSON.stringify(name)} is not a Role name a flow can use (letters, digits, ".", "_", "-")` };
  if (!(ROLE_FIELDS as readonly string[]).includes(field)) {
    return { problem: `${written}: a Role has no field ${JSON.stringify(field)}; use content or description` };
  }
  return { name, field: field as RoleField };
}

/** The Role templates of one string, in order (problems included). */
export function roleTemplatesIn(text: string): RoleTemplate[] {
  const found: RoleTemplate[] = [];
  for (const match of text.matchAll(TEMPLATE)) {
    const template = readRoleTemplate(match[1]!);
    if (template !== undefined) found.push(template);
  }
  return found;
}

/** Every string inside an outputs template, with its JSON-pointer segments below the template. */
export function stringsIn(value: unknown, at: string[] = []): { text: string; at: string[] }[] {
  if (typeof value === 'string') return [{ text: value, at }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsIn(v, [...at, String(i)]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringsIn(v, [...at, k]));
  return [];
}

/** Why a step failed that needs a Role the tenant does not have; `by`: what uses it. */
export function missingRoleText(name: string, by: string): string {
  return `Role "${name}" not found on the tenant (used by ${by}): apply the role files first (roleflow apply)`;
}
