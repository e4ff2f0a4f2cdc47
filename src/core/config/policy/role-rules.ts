import type { Position } from '../../errors.js';
import type { RoleFile } from '../../roles/index.js';
import { matchesOf } from './pattern.js';
import type { SecretScanner } from './secrets.js';
import type { Finding, Level, RolePolicy, RoleRule } from './types.js';

/**
 * The role rules of `policy.roles` over one parsed role file, each finding where its cause is
 * written: a forbidden phrase or a secret at its first character, `max_chars` at the first
 * character past the limit, `must_include` at the content's start, `name` and `description` at
 * their keys. `secrets` is always looked for, and always an error. Phrases and patterns are looked
 * for in the description and the content; the limit counts the content's characters.
 */
export function lintRoleFile(role: RoleFile, policy: RolePolicy, secrets: SecretScanner): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: RoleRule, at: Position, message: string, level: Level = levelOf(policy, rule)): void => {
    findings.push({ rule, level, file: role.file, line: at.line, column: at.col, message });
  };
  const texts = textsOf(role);
  for (const text of texts) {
    for (const hit of secrets.find(text.value)) {
      add('secrets', text.at(hit.index), `${text.field} holds ${hit.kind}: a Role is sent to the tenant and shown in plans; remove it (roleflow never writes it to a file)`, 'error');
    }
  }
  if (policy.maxChars !== undefined && role.content.length > policy.maxChars) {
    add('max_chars', texts[texts.length - 1]!.at(policy.maxChars), `content is ${role.content.length} characters, more than max_chars ${policy.maxChars} (the excess starts here)`);
  }
  for (const pattern of policy.forbid) {
    for (const text of texts) {
      for (const m of matchesOf(pattern, text.value)) add('forbid', text.at(m.index), `${text.field} holds ${pattern.isRegex ? `a match of ${pattern.source}` : JSON.stringify(pattern.source)}, which policy.roles.forbid forbids`);
    }
  }
  for (const pattern of policy.mustInclude) {
    if (!pattern.regex.test(role.content)) add('must_include', contentStart(role), `content does not include ${pattern.isRegex ? `a match of ${pattern.source}` : JSON.stringify(pattern.source)} (policy.roles.must_include)`);
  }
  if (policy.name && !policy.name.regex.test(role.name)) {
    add('name', role.at.name, `name ${JSON.stringify(role.name)} does not match ${policy.name.source} (policy.roles.name)`);
  }
  if (policy.descriptionRequired && role.description.trim() === '') {
    add('description', role.at.description ?? role.at.name, 'description is empty: policy.roles.description is required');
  }
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}

function levelOf(policy: RolePolicy, rule: RoleRule): Level {
  return policy.levels[rule] ?? policy.level;
}

interface Located {
  field: 'name' | 'description' | 'content';
  value: string;
  /** Where the character at this offset of the value is written in the file. */
  at(offset: number): Position;
}

/** The name, the description and the content, each able to say where a character of it stands. */
function textsOf(role: RoleFile): Located[] {
  const texts: Located[] = [];
  // A name is on its key's line; its value follows `name: ` (a quoted one: one column later, not known here).
  texts.push({ field: 'name', value: role.name, at: () => role.at.name });
  const d = role.at.descriptionText;
  texts.push({ field: 'description', value: role.description, at: (i) => (d ? { line: d.line, col: d.col + i } : (role.at.description ?? role.at.name)) });
  const start = contentStart(role);
  texts.push({ field: 'content', value: role.content, at: (i) => offsetPosition(role.content, i, start) });
  return texts;
}

function contentStart(role: RoleFile): Position {
  return { line: role.contentLine ?? 1, col: 1 };
}

/** The position of `text[offset]` when `text` starts at `start` (columns count UTF-16 units, as editors' do). */
export function offsetPosition(text: string, offset: number, start: Position): Position {
  let line = start.line;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: (line === start.line ? start.col : 1) + offset - lineStart };
}
