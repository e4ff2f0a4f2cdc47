import { Document } from 'yaml';
import type { RoleFields } from '../model.js';

/** What `pull` writes for a Role: `parseRoleFile` gives back exactly these fields, for any values. */
export function serializeRoleFile(role: RoleFields & { id?: string }): string {
  const front: Record<string, string> = { name: role.name, description: role.description };
  if (role.id !== undefined) front['id'] = role.id;
  // lineWidth 0: never fold a long description over lines; the yaml package quotes what needs it.
  const yaml = new Document(front).toString({ lineWidth: 0 });
  // Content plus one `\n`, which the content rule drops again. A content ending in `\r` would
  // turn that into `\r\n`, a line break the rule drops whole, so such content gets no `\n`.
  const end = role.content.endsWith('\r') ? '' : '\n';
  return `---\n${yaml}---\n${role.content}${end}`;
}

/** Longest slug kept from a Role name, in code points; the limit of most file systems is 255 bytes. */
const MAX_SLUG = 64;

/** Windows device names (also with any extension) and README, which is never read as a role. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|readme)$/;

/**
 * A file name for a Role, safe on every OS whatever the name holds: letters, digits, `-` and `_`
 * only (so no `/`, `\`, `..`, NUL, control characters or leading dot), never empty, never a
 * reserved device name, bounded in length, lower-case. `taken` holds lower-case file names already
 * used (see `fileNameKey`); a collision gets `-2`, `-3`… The caller adds the result to `taken`.
 */
export function roleFileName(name: string, taken: ReadonlySet<string>): string {
  let slug = name
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  slug = Array.from(slug).slice(0, MAX_SLUG).join('').replace(/[-_]+$/, '');
  if (slug === '') slug = 'role';
  if (RESERVED.test(slug)) slug = `${slug}-role`;
  let candidate = `${slug}.md`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${slug}-${n}.md`;
  return candidate;
}

/** How file names are compared for collisions: case-insensitively, as macOS and Windows do. */
export function fileNameKey(fileName: string): string {
  return fileName.toLowerCase().normalize('NFC');
}
