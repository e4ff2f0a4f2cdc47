import { Document, parse, Scalar } from 'yaml';
import type { RoleFields } from '../model.js';

/**
 * What `pull` writes for a Role: `parseRoleFile` gives back exactly these fields, for any values,
 * and so does any other YAML reader (gray-matter, PyYAML, YAML 1.1 or 1.2): see `quoteIfAmbiguous`.
 */
export function serializeRoleFile(role: RoleFields & { id?: string; tenants?: readonly string[] }): string {
  const doc = new Document({});
  doc.set('name', quoteIfAmbiguous(role.name));
  doc.set('description', quoteIfAmbiguous(role.description));
  if (role.id !== undefined) doc.set('id', quoteIfAmbiguous(role.id));
  if (role.tenants !== undefined) doc.set('tenants', doc.createNode(role.tenants.map(quoteIfAmbiguous), { flow: true }));
  // lineWidth 0: never fold a long description over lines; the yaml package quotes what needs it.
  const yaml = doc.toString({ lineWidth: 0 });
  // Content plus one `\n`, which the content rule drops again. A content ending in `\r` would
  // turn that into `\r\n`, a line break the rule drops whole, so such content gets no `\n`.
  const end = role.content.endsWith('\r') ? '' : '\n';
  return `---\n${yaml}---\n${role.content}${end}`;
}

/**
 * The value as a scalar, double-quoted when another reader could take it written plain for
 * something other than this string. The yaml package quotes what YAML 1.2 would misread (`true`,
 * `null`, `0x1F`); YAML 1.1 readers (PyYAML, js-yaml in gray-matter, yaml in 1.1 mode) also read
 * `yes`/`on`/`y`, `12:30` (base 60), `1_000`, `0b101`, `017`, dates, `=` and `<<` as something else.
 */
function quoteIfAmbiguous(value: string): Scalar<string> {
  const scalar = new Scalar(value);
  if (YAML_11_IMPLICIT.some((re) => re.test(value)) || !readsBackPlain(value)) scalar.type = Scalar.QUOTE_DOUBLE;
  return scalar;
}

/** Whether the yaml package's own plain form of `value` reads back the same in 1.1 and in 1.2. */
function readsBackPlain(value: string): boolean {
  const text = new Document({ v: value }).toString({ lineWidth: 0 });
  return (['1.1', '1.2'] as const).every((version) => {
    try {
      return (parse(text, { version }) as { v?: unknown } | null)?.v === value;
    } catch {
      return false;
    }
  });
}

/**
 * The implicit types of YAML 1.1 (yaml.org/type) as PyYAML and js-yaml resolve them, plus the
 * float form js-yaml reads without a dot (`1_0e5`). A plain scalar matching one is not a string.
 */
const YAML_11_IMPLICIT: readonly RegExp[] = [
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:~|null|Null|NULL|=|<<)$/,
  /^[-+]?(?:0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9._]*(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
  /^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/,
  /^[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$/,
];

/** Longest slug kept from a Role name, in code points; the limit of most file systems is 255 bytes. */
const MAX_SLUG = 64;

/** Windows device names (also with any extension) and README, which is never read as a role. */
const RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|readme)$/;

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
