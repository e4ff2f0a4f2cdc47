/**
 * Carry out the plans of several tenants one tenant at a time, in order (`applyOne` is the
 * single-tenant apply: checks, requests, result). It stops at the first tenant that does not end
 * with exit 0 (failed, refused, interrupted): the tenants after it are not attempted, and say so.
 */
export async function applyTenantsInOrder<S, E extends { code: number }>(
  steps: readonly S[],
  nameOf: (step: S) => string,
  applyOne: (step: S) => Promise<E>,
): Promise<{ ended: E[]; notAttempted: string[] }> {
  const ended: E[] = [];
  for (const [i, step] of steps.entries()) {
    const end = await applyOne(step);
    ended.push(end);
    if (end.code !== 0) return { ended, notAttempted: steps.slice(i + 1).map(nameOf) };
  }
  return { ended, notAttempted: [] };
}
