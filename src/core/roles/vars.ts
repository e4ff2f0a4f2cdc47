import type { Issue, Position, Result } from '../errors.js';
import type { RoleFile } from './role-file.js';

/**
 * Variables in role files (PRODUCT.md "Environments and promotion"): in a Role's description and
 * content, `${vars.NAME}` is the tenant's value of NAME; `$${vars.NAME}` is the literal text
 * `${vars.NAME}`; any other `${…}` or `{{…}}` is the Role's own and left alone. Values are put in
 * as they are, never rendered again. Pure: the caller hands in the tenant's variables.
 */

/** A variable's name, as the config schema allows it (`vars.propertyNames`). */
export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const OPEN = '${vars.';
const ESCAPED = '$${vars.';
/** Sticky: matches only where `lastIndex` puts it. */
const REFERENCE = /\$\{vars\.([A-Za-z_][A-Za-z0-9_]*)\}/y;

/** The variables of one tenant: a Map, so no name reaches an inherited member (`constructor`). */
export type TenantVars = ReadonlyMap<string, string>;

/** A reference that could not be rendered: at `index` of the text, `name` undeclared or malformed. */
export interface VarProblem {
  index: number;
  /** The undeclared name; absent when `${vars.` is not followed by a name and `}`. */
  name?: string;
}

/** `text` with every variable put in, and the references that could not be; never throws. */
export function renderVars(text: string, vars: TenantVars): { text: string; problems: VarProblem[] } {
  return render(text, vars, undefined);
}

/**
 * `renderVars`, and for each character of the rendered text its index in `text` (a value's
 * characters all map to its reference): a place in the rendered text is named in the file.
 */
export function renderVarsWithOrigin(text: string, vars: TenantVars): { text: string; problems: VarProblem[]; origin: number[] } {
  const origin: number[] = [];
  return { ...render(text, vars, origin), origin };
}

function render(text: string, vars: TenantVars, origin: number[] | undefined): { text: string; problems: VarProblem[] } {
  const keep = (from: number, to: number): string => {
    if (origin) for (let i = from; i < to; i++) origin.push(i);
    return text.slice(from, to);
  };
  if (!text.includes(OPEN)) return { text: keep(0, text.length), problems: [] };
  const problems: VarProblem[] = [];
  let out = '';
  let from = 0;
  for (let i = text.indexOf('$', from); i !== -1; i = text.indexOf('$', from)) {
    if (text.startsWith(ESCAPED, i)) {
      out += keep(from, i) + keep(i + 1, i + ESCAPED.length);
      from = i + ESCAPED.length;
      continue;
    }
    if (!text.startsWith(OPEN, i)) {
      out += keep(from, i + 1);
      from = i + 1;
      continue;
    }
    REFERENCE.lastIndex = i;
    const m = REFERENCE.exec(text);
    const name = m?.[1];
    const value = name === undefined ? undefined : vars.get(name);
    if (value === undefined) {
      problems.push({ index: i, ...(name === undefined ? {} : { name }) });
      out += keep(from, i + OPEN.length);
      from = i + OPEN.length;
      continue;
    }
    out += keep(from, i) + value;
    if (origin) for (let k = 0; k < value.length; k++) origin.push(i);
    from = i + m![0].length;
  }
  return { text: out + keep(from, text.length), problems };
}

/** `text` written so that rendering gives it back, whatever the variables: `${vars.` → `$${vars.`. */
export function escapeVars(text: string): string {
  return text.split(OPEN).join(ESCAPED);
}

/**
 * The role files as one tenant gets them: description and content rendered with `vars`. Every
 * reference that cannot be rendered is an issue at its place in the file: its own line and column
 * (in a description that YAML folds, quotes with escapes or writes over lines, where its value starts).
 */
export function renderRoleFiles(files: readonly RoleFile[], tenant: string, vars: TenantVars): Result<RoleFile[]> {
  const found: Found[] = [];
  const rendered = files.map((file) => renderRoleFile(file, vars, found));
  return found.length > 0 ? { ok: false, issues: found.map((f) => varIssue(f, [tenant])) } : { ok: true, value: rendered };
}

/**
 * `validate`: every reference that some tenant cannot render, one issue per place naming every
 * such tenant. `tenants` lists, per tenant, its variables and the files that are for it.
 */
export function varIssuesOfTenants(tenants: readonly { name: string; vars: TenantVars; files: readonly RoleFile[] }[]): Issue[] {
  const byPlace = new Map<string, { found: Found; tenants: string[] }>();
  for (const tenant of tenants) {
    const found: Found[] = [];
    for (const file of tenant.files) renderRoleFile(file, tenant.vars, found);
    for (const f of found) {
      const key = JSON.stringify([f.file, f.at.line, f.at.col, f.where, f.name ?? null]);
      const seen = byPlace.get(key);
      if (seen) seen.tenants.push(tenant.name);
      else byPlace.set(key, { found: f, tenants: [tenant.name] });
    }
  }
  return [...byPlace.values()].map(({ found, tenants: names }) => varIssue(found, names));
}

interface Found {
  file: string;
  at: Position;
  where: 'description' | 'content';
  name?: string;
}

function renderRoleFile(file: RoleFile, vars: TenantVars, found: Found[]): RoleFile {
  const description = renderVars(file.description, vars);
  const content = renderVars(file.content, vars);
  const { descriptionText } = file.at;
  const descriptionAt = (index: number): Position =>
    descriptionText === undefined ? (file.at.description ?? file.at.name) : { line: descriptionText.line, col: descriptionText.col + index };
  for (const p of description.problems) found.push({ file: file.file, at: descriptionAt(p.index), where: 'description', ...nameOf(p) });
  for (const p of content.problems) found.push({ file: file.file, at: positionIn(file.content, p.index, file.contentLine ?? 1), where: 'content', ...nameOf(p) });
  if (description.text === file.description && content.text === file.content) return file;
  return { ...file, description: description.text, content: content.text };
}

function nameOf(p: VarProblem): { name?: string } {
  return p.name === undefined ? {} : { name: p.name };
}

/** One tenant's variables: the config's top-level `vars`, then the tenant's own, which win. */
export function mergeVars(defaults: Readonly<Record<string, string>>, own: Readonly<Record<string, string>> = {}): TenantVars {
  return new Map([...Object.entries(defaults), ...Object.entries(own)]);
}

function varIssue(f: Found, tenants: readonly string[]): Issue {
  const which = tenants.length === 1 ? `tenant ${JSON.stringify(tenants[0])}` : `tenants ${tenants.map((t) => JSON.stringify(t)).join(', ')}`;
  const message =
    f.name === undefined
      ? `${f.where}: "\${vars." must be followed by a variable name and "}" (letters, digits, _); write "$\${vars." for the text itself`
      : `${f.where}: \${vars.${f.name}} is not declared for ${which}: declare it under vars: in the config (or a tenant's vars:), or write $\${vars.${f.name}} for the text itself`;
  return { file: f.file, ...f.at, message };
}

/** Line and column (1-based, UTF-16 units) of `index` in text that starts at line `firstLine`. */
function positionIn(text: string, index: number, firstLine: number): Position {
  let line = firstLine;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: index - lineStart + 1 };
}
