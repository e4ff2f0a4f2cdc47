import { hash } from 'node:crypto';
import type { Role } from '../model.js';

/**
 * Fingerprints of remote state, recorded in a saved plan so `apply PLANFILE` can tell whether the
 * tenant moved since the plan was reviewed. Deterministic across runs and machines.
 */

/** A Role's id and fields. */
export function roleStateHash(role: Role): string {
  return sha256(JSON.stringify(['role', role.id, role.name, role.description, role.content]));
}

/** The Roles holding a name (empty when absent), in any order. */
export function nameStateHash(name: string, holders: readonly Role[]): string {
  if (holders.length === 0) return sha256(`absent:${name}`);
  const states = holders.map(roleStateHash).sort();
  return sha256(JSON.stringify(['name', name, states]));
}

export function sha256(text: string): string {
  // One-shot: no Hash object per Role (the text is hashed as UTF-8, as `update(text, 'utf8')` did).
  return `sha256:${hash('sha256', text, 'hex')}`;
}
