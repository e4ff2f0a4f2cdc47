import type { Role } from '../model.js';

/**
 * How the tenant's Roles changed between two listings, one line per Role (empty: they did not):
 * made, deleted, or a field changed. Ids identify a Role; a Role's fields are name, description
 * and content. `last_updated` alone is no change (a tenant may touch it).
 */
export function rolesDiffer(before: readonly Role[], after: readonly Role[]): string[] {
  const was = new Map(before.map((r) => [r.id, r]));
  const is = new Map(after.map((r) => [r.id, r]));
  const lines: string[] = [];
  for (const role of after) {
    const old = was.get(role.id);
    if (old === undefined) lines.push(`Role "${role.name}" was created`);
    else {
      const fields = (['name', 'description', 'content'] as const).filter((f) => old[f] !== role[f]);
      if (fields.length > 0) lines.push(`Role "${old.name}" changed (${fields.join(', ')})`);
    }
  }
  for (const role of before) if (!is.has(role.id)) lines.push(`Role "${role.name}" was deleted`);
  return lines;
}
