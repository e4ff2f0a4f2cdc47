import type { Issue, Position, Result } from '../errors.js';
import { validateAgainst } from '../text/schema.js';
import { decodeText, nulIssue, tooLargeIssue, type TextFileKind } from '../text/text-file.js';
import { parseYaml, type YamlSource } from '../text/yaml-source.js';
import { splitFrontMatter } from './front-matter.js';
import { readSimpleFrontMatter, schemaAcceptsSimple } from './simple-front-matter.js';

export type { Position } from '../errors.js';

/** One parsed and validated role file. `content` follows the content rule of PRODUCT.md exactly. */
export interface RoleFile {
  file: string;
  name: string;
  description: string;
  id?: string;
  content: string;
  /**
   * Front-matter `tenants:` (names or globs): the tenants this Role is managed on. Absent: every
   * tenant (`src/core/roles/membership.ts`).
   */
  tenants?: string[];
  /**
   * Where the `name`, `id` and `tenants` keys and the description's value stand, for issues that
   * point back at the file.
   */
  at: {
    name: Position;
    id?: Position;
    description?: Position;
    /** Where the description's first character stands, when its text is on one line as it is (no escapes). */
    descriptionText?: Position;
    tenants?: Position;
    /** Where each name of `tenants:` stands, in its order. */
    tenantNames?: Position[];
  };
  /** The line of the file where the content starts (variables in it are located from there). */
  contentLine?: number;
}

/** Role files are prompts, not data dumps: anything larger is refused before parsing. */
export const MAX_ROLE_FILE_BYTES = 1024 * 1024;

/** How role files are read from disk: the limit above, and markdown text. */
export const ROLE_FILE: TextFileKind = { maxBytes: MAX_ROLE_FILE_BYTES, noun: 'a role file', holds: 'markdown text' };

/** A hostile file can hold thousands of problems; past this many, one line counts the rest. */
export const MAX_ISSUES_PER_FILE = 20;

interface FrontMatter {
  name: string;
  description: string;
  id?: string;
  tenants?: string[];
}

/** Bytes read from disk → text, by the rules every text file follows (`decodeText`). */
export function decodeRoleFile(bytes: Uint8Array, file: string): Result<string> {
  return decodeText(bytes, file, ROLE_FILE);
}

/**
 * Parse one role file's text. Every problem of the file comes back at once as located issues;
 * `schema` is `schemas/role.schema.json`, handed in so this module reads nothing.
 */
export function parseRoleFile(text: string, file: string, schema: object): Result<RoleFile> {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: short texts need no counting.
  const size = text.length * 3 <= MAX_ROLE_FILE_BYTES ? 0 : utf8Length(text);
  if (size > MAX_ROLE_FILE_BYTES) return { ok: false, issues: [tooLargeIssue(file, size, ROLE_FILE)] };
  const binary = nulIssue(text, file, ROLE_FILE);
  if (binary) return { ok: false, issues: [binary] };

  const split = splitFrontMatter(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (!split.ok) return fail(file, { line: split.line, col: 1 }, split.message);

  // Opening line, the front-matter's lines, the closing line: then the content.
  const contentLine = lineBreaks(split.yaml) + 3;
  const simple = schemaAcceptsSimple(schema) ? readSimpleFrontMatter(split.yaml) : undefined;
  if (simple) {
    const { name, description, id, at } = simple;
    // Two literals rather than a spread: no object is copied for each of thousands of files.
    const content = split.content;
    return { ok: true, value: id === undefined ? { file, name, description, content, at, contentLine } : { file, name, description, id, content, at, contentLine } };
  }

  // The front-matter's first line is line 2 of the file.
  const parsed = parseYaml(split.yaml, { file, lineOffset: 1 });
  if (!parsed.ok) return { ok: false, issues: capped(parsed.issues) };
  const source = parsed.value;
  const value = source.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'nothing' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    const pos = split.yaml.trim() === '' ? { line: 2, col: 1 } : source.locate('');
    return fail(file, pos, `front-matter must be a mapping with "name" and "description" keys, got ${got}`);
  }
  const valid = validateAgainst<FrontMatter>(schema, source, file);
  if (!valid.ok) return { ok: false, issues: capped(valid.issues.map(withNullHint)) };

  const { name, description, id, tenants } = valid.value;
  return {
    ok: true,
    value: {
      file,
      name,
      description,
      ...(id === undefined ? {} : { id }),
      ...(tenants === undefined ? {} : { tenants }),
      content: split.content,
      at: {
        name: keyPosition(source, 'name'),
        ...(id === undefined ? {} : { id: keyPosition(source, 'id') }),
        ...descriptionPositions(split.yaml, source.locate('/description'), description),
        ...(tenants === undefined ? {} : { tenants: keyPosition(source, 'tenants'), tenantNames: tenants.map((_, i) => source.locate(`/tenants/${i}`)) }),
      },
      contentLine,
    },
  };
}

/**
 * Where the description's value starts, and where its text starts when the rest of its line is the
 * text itself, plain or between quotes (so a column inside it is the text's own).
 */
function descriptionPositions(yaml: string, at: Position, description: string): { description: Position; descriptionText?: Position } {
  // The front-matter's first line is line 2 of the file.
  const rest = (yaml.split('\n')[at.line - 2] ?? '').replace(/\r$/, '').slice(at.col - 1);
  if (description === '') return { description: at };
  if (rest === description) return { description: at, descriptionText: at };
  if (rest === `"${description}"` || rest === `'${description}'`) return { description: at, descriptionText: { line: at.line, col: at.col + 1 } };
  return { description: at };
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function capped(issues: Issue[]): Issue[] {
  if (issues.length <= MAX_ISSUES_PER_FILE) return issues;
  const shown = issues.slice(0, MAX_ISSUES_PER_FILE);
  const last = shown[shown.length - 1]!;
  return [...shown, { ...last, message: `${issues.length - MAX_ISSUES_PER_FILE} more problems in this file not shown` }];
}

function keyPosition(source: YamlSource, key: string): Position {
  return source.locate('', { key });
}

// `description:` with nothing after it is null in YAML; say how to write an empty one.
function withNullHint(issue: Issue): Issue {
  const m = /^(name|description|id): must be string, got null$/.exec(issue.message);
  if (!m) return issue;
  return { ...issue, message: `${issue.message} (write ${m[1]}: "" for an empty string)` };
}

function fail(file: string, pos: Position, message: string): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ file, ...pos, message }] };
}

/** UTF-8 byte length without encoding: a code unit is 1–3 bytes, a surrogate pair 4 in all. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 2 : c >= 0xdc00 && c <= 0xdfff ? 2 : 3;
  }
  return bytes;
}
