import type { Issue, Position, Result } from '../errors.js';
import { thousands } from './display.js';
import type { RoleFile } from './role-file.js';
import { MAX_SENT_ROLE_BYTES, sentRoleBytes } from './sent-size.js';

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

/** What `renderVars` returns: the text, the references it could not render, and whether it was cut. */
export interface Rendered {
  /** At most `maxLength` code units, whatever the input and the variables. */
  text: string;
  problems: VarProblem[];
  /** Present when the text would have been longer than `maxLength`: `text` is its beginning. */
  tooLong?: true;
}

/**
 * `text` with every variable put in, and the references that could not be; never throws. The
 * output is bounded as it is built: past `maxLength` code units (by default the most a Role may
 * be sent as — a code unit is at least one byte of UTF-8) it stops, cut, with `tooLong`.
 */
export function renderVars(text: string, vars: TenantVars, maxLength: number = MAX_SENT_ROLE_BYTES): Rendered {
  return render(text, vars, maxLength, undefined);
}

/**
 * `renderVars`, and for each character of the rendered text its index in `text` (a value's
 * characters all map to its reference): a place in the rendered text is named in the file.
 */
export function renderVarsWithOrigin(text: string, vars: TenantVars, maxLength: number = MAX_SENT_ROLE_BYTES): Rendered & { origin: number[] } {
  const origin: number[] = [];
  return { ...render(text, vars, maxLength, origin), origin };
}

function render(text: string, vars: TenantVars, maxLength: number, origin: number[] | undefined): Rendered {
  const problems: VarProblem[] = [];
  let out = '';
  /** Appends `text[from, to)` (or `value`, whose characters all come from `from`); false once cut. */
  const add = (from: number, to: number, value?: string): boolean => {
    const piece = value ?? text.slice(from, to);
    const room = maxLength - out.length;
    const kept = piece.length <= room ? piece : piece.slice(0, room);
    out += kept;
    if (origin) for (let k = 0; k < kept.length; k++) origin.push(value === undefined ? from + k : from);
    return kept.length === piece.length;
  };
  let from = 0;
  for (let i = text.indexOf('$', from); i !== -1; i = text.indexOf('$', from)) {
    let fits: boolean;
    if (text.startsWith(ESCAPED, i)) {
      fits = add(from, i) && add(i + 1, i + ESCAPED.length);
      from = i + ESCAPED.length;
    } else if (!text.startsWith(OPEN, i)) {
      fits = add(from, i + 1);
      from = i + 1;
    } else {
      REFERENCE.lastIndex = i;
      const m = REFERENCE.exec(text);
      const name = m?.[1];
      const value = name === undefined ? undefined : vars.get(name);
      if (value === undefined) {
        problems.push({ index: i, ...(name === undefined ? {} : { name }) });
        fits = add(from, i + OPEN.length);
        from = i + OPEN.length;
      } else {
        fits = add(from, i) && add(i, i, value);
        from = i + m![0].length;
      }
    }
    if (!fits) return { text: out, problems, tooLong: true };
  }
  return add(from, text.length) ? { text: out, problems } : { text: out, problems, tooLong: true };
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
      const key = JSON.stringify(f.kind === 'size' ? [f.file, 'size', f.bytes ?? null] : [f.file, f.at.line, f.at.col, f.where, f.name ?? null]);
      const seen = byPlace.get(key);
      if (seen) seen.tenants.push(tenant.name);
      else byPlace.set(key, { found: f, tenants: [tenant.name] });
    }
  }
  return [...byPlace.values()].map(({ found, tenants: names }) => varIssue(found, names));
}

/** A reference that could not be rendered (`kind: 'var'`), or a file too big once rendered. */
type Found =
  | { kind: 'var'; file: string; at: Position; where: 'description' | 'content'; name?: string }
  | { kind: 'size'; file: string; at: Position; /** Absent: rendering stopped past the bound. */ bytes?: number };

/** Rendering a file stops past this many code units: enough to say how far over the limit it is. */
const RENDER_BOUND = 4 * MAX_SENT_ROLE_BYTES;

function renderRoleFile(file: RoleFile, vars: TenantVars, found: Found[]): RoleFile {
  // No `$` at all, so nothing to render (most files): the file as it is, once its size is known fine.
  if (!file.description.includes('$') && !file.content.includes('$')) {
    const bytes = sentRoleBytes(file);
    if (bytes === undefined || bytes <= MAX_SENT_ROLE_BYTES) return file;
  }
  const description = renderVars(file.description, vars, RENDER_BOUND);
  const content = renderVars(file.content, vars, RENDER_BOUND);
  const { descriptionText } = file.at;
  const descriptionAt = (index: number): Position =>
    descriptionText === undefined ? (file.at.description ?? file.at.name) : { line: descriptionText.line, col: descriptionText.col + index };
  const contentAt = (index: number): Position => positionIn(file.content, index, file.contentLine ?? 1);
  for (const p of description.problems) found.push({ kind: 'var', file: file.file, at: descriptionAt(p.index), where: 'description', ...nameOf(p) });
  for (const p of content.problems) found.push({ kind: 'var', file: file.file, at: contentAt(p.index), where: 'content', ...nameOf(p) });
  const rendered = { name: file.name, description: description.text, content: content.text };
  const bytes = description.tooLong || content.tooLong ? undefined : sentRoleBytes(rendered);
  if (bytes === undefined ? description.tooLong || content.tooLong : bytes > MAX_SENT_ROLE_BYTES) {
    // Located at the larger of the two, where it starts.
    const at = description.text.length > content.text.length ? descriptionAt(0) : contentAt(0);
    found.push({ kind: 'size', file: file.file, at, ...(bytes === undefined ? {} : { bytes }) });
  }
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
  let message: string;
  if (f.kind === 'size') {
    const size = f.bytes === undefined ? `more than ${thousands(RENDER_BOUND)}` : thousands(f.bytes);
    message = `the Role renders to ${size} bytes for ${which}, over the limit of ${thousands(MAX_SENT_ROLE_BYTES)} bytes a Role may be sent as (name, description and content as JSON): shorten the file or its variables`;
  } else if (f.name === undefined) {
    message = `${f.where}: "\${vars." must be followed by a variable name and "}" (letters, digits, _); write "$\${vars." for the text itself`;
  } else {
    message = `${f.where}: \${vars.${f.name}} is not declared for ${which}: declare it under vars: in the config (or a tenant's vars:), or write $\${vars.${f.name}} for the text itself`;
  }
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
