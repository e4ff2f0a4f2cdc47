import type { RoleFields } from '../model.js';
import { sha256 } from './hash.js';
import { globMatcher } from './matching.js';
import { compare } from './notes.js';

/**
 * The digest of a set of Roles as the plan compares them: each Role's name, description and
 * content — not its id, which role files need not pin and the tenant gives afresh to a Role made
 * again: the same fields are the same Roles to a flow — leaving out the Roles whose names match
 * `ignore` (`roles.ignore`), as the plan does. One canonical form for both sides of the promotion
 * gate: `roleflow test` hashes the Roles it lists on the tenant, `promote` the Roles the role
 * files render to for that tenant. The order of the Roles does not count; each one does (two
 * Roles with the same fields count twice).
 *
 * The text hashed (`sha256:` and hex): `["roleflow.roles",[name,description,content],…]`, the
 * Roles sorted by name, then description, then content (by UTF-16 code units).
 */
export function rolesDigest(roles: readonly RoleFields[], ignore: readonly string[] = []): string {
  const ignored = globMatcher(ignore);
  const fields = roles
    .filter((role) => ignored(role.name) === undefined)
    .map((role): [string, string, string] => [role.name, role.description, role.content])
    .sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]) || compare(a[2], b[2]));
  return sha256(JSON.stringify(['roleflow.roles', ...fields]));
}
