/**
 * JSON with object keys sorted at every level, indented two spaces: the same value always gives
 * the same text, whatever order its members arrived in (a tenant's outputs, a digest's input).
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // defineProperty: a key "__proto__" is an own member, not the prototype.
    Object.defineProperty(sorted, key, { value: sortKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}
