import type { Issue } from '../errors.js';
import type { Position, RoleFile } from './role-file.js';

/**
 * Names and ids must be unique across role files: each name (or id) used by more than one file
 * is one issue, at its first file, naming every other file with its position.
 */
export function checkRoleSet(files: readonly RoleFile[]): Issue[] {
  return [
    ...duplicates(files, (f) => (f.id === undefined ? undefined : { value: f.id, at: f.at.id ?? f.at.name }), 'id'),
    ...duplicates(files, (f) => ({ value: f.name, at: f.at.name }), 'name'),
  ].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

type Key = { value: string; at: Position } | undefined;

function duplicates(files: readonly RoleFile[], key: (f: RoleFile) => Key, what: 'name' | 'id'): Issue[] {
  // Values seen twice, found first without grouping: there are usually none, and plans check
  // every name of thousands of files.
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const f of files) {
    const k = key(f);
    if (k === undefined) continue;
    if (seen.has(k.value)) repeated.add(k.value);
    else seen.add(k.value);
  }
  if (repeated.size === 0) return [];
  const groups = new Map<string, { file: string; at: Position }[]>();
  for (const f of files) {
    const k = key(f);
    if (k === undefined || !repeated.has(k.value)) continue;
    const group = groups.get(k.value);
    if (group) group.push({ file: f.file, at: k.at });
    else groups.set(k.value, [{ file: f.file, at: k.at }]);
  }
  const issues: Issue[] = [];
  for (const [value, [first, ...others]] of groups) {
    if (!first || others.length === 0) continue;
    const where = others.map((o) => `${o.file}:${o.at.line}:${o.at.col}`).join(', ');
    issues.push({
      file: first.file,
      ...first.at,
      message: `${what} ${JSON.stringify(value)} is also used by ${where}: each Role needs exactly one file`,
    });
  }
  return issues;
}
