import type { Plan } from '../../plan/types.js';
import { quote } from '../../roles/display.js';
import type { SecretScanner } from './secrets.js';

/**
 * Where a plan holds a secret, in words (never the secret): the planned state of a Role (from its
 * role file, after `${vars}` are put in) or its state on the tenant. `plan --out` refuses to save
 * such a plan: no file roleflow writes holds a secret.
 */
export function planSecretPlaces(plan: Pick<Plan, 'changes'>, scanner: SecretScanner): string[] {
  const places: string[] = [];
  for (const change of plan.changes) {
    for (const [side, state] of [['planned', change.after], ['on the tenant', change.before]] as const) {
      if (!state) continue;
      for (const { field, kind } of secretFields(state, scanner)) places.push(`Role ${quote(change.name)}: its ${field} ${side} holds ${kind}`);
    }
    if (change.diff && scanner.holds(change.diff) && !places.some((p) => p.startsWith(`Role ${quote(change.name)}:`))) places.push(`Role ${quote(change.name)}: its diff holds a secret`);
  }
  return places;
}

/** The fields of a Role that hold a secret, each with what it holds in words (never the secret). */
export function secretFields(role: { name: string; description: string; content: string }, scanner: SecretScanner): { field: 'name' | 'description' | 'content'; kind: string }[] {
  const found: { field: 'name' | 'description' | 'content'; kind: string }[] = [];
  for (const field of ['name', 'description', 'content'] as const) {
    const hit = scanner.find(role[field])[0];
    if (hit) found.push({ field, kind: hit.kind });
  }
  return found;
}
