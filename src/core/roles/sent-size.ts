import { MAX_ROLE_FILE_BYTES, utf8Length } from './role-file.js';

/**
 * How big a Role may be once rendered for a tenant: what is sent — its name, description and
 * content as JSON — fits in the 1 MiB a role file may hold, less 1 KiB kept for its id and the
 * request's framing (the embedded tenant refuses a body over 1 MiB with 413). Checked at
 * `validate`, `plan` and `apply` before anything is sent.
 */
export const MAX_SENT_ROLE_BYTES = MAX_ROLE_FILE_BYTES - 1024;

/** A JSON-escaped code unit is at most 6 bytes (`\u0001`), plus the framing of three members. */
const WORST_PER_UNIT = 6;
const FRAMING = 64;

/**
 * UTF-8 bytes of `{"name":…,"description":…,"content":…}`, or undefined when it is surely within
 * `MAX_SENT_ROLE_BYTES` (short texts are not counted).
 */
export function sentRoleBytes(role: { name: string; description: string; content: string }): number | undefined {
  const units = role.name.length + role.description.length + role.content.length;
  if (units * WORST_PER_UNIT + FRAMING <= MAX_SENT_ROLE_BYTES) return undefined;
  return utf8Length(JSON.stringify({ name: role.name, description: role.description, content: role.content }));
}
