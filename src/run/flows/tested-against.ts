import { rolesDigest } from '../../core/plan/index.js';
import type { TenantClient } from '../../core/model.js';
import { RoleflowError } from '../../core/errors.js';
import type { RolesDigestRecord } from '../../core/runs/index.js';

/** A listing of the tenant's Roles as one digest, or why there is none. */
export type RolesListing = { digest: string } | { problem: string };

/**
 * The digest of the Roles the tenant holds now (`rolesDigest`, leaving out `ignore`), or why they
 * could not be listed (a token that may run flows but not read Roles): the run goes on without
 * it. Undefined when `signal` is aborted first: an interruption does not wait for the listing.
 */
export async function listRolesDigest(client: TenantClient, ignore: readonly string[], signal: AbortSignal): Promise<RolesListing | undefined> {
  if (signal.aborted) return undefined;
  const listing = client.listRoles().then(
    (roles): RolesListing => ({ digest: rolesDigest(roles, ignore) }),
    (error: unknown): RolesListing => {
      if (error instanceof RoleflowError) return { problem: error.message };
      throw error;
    },
  );
  let stop: () => void = () => undefined;
  const aborted = new Promise<undefined>((resolve) => {
    stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([listing, aborted]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * What the report records of the Roles: both listings' digests, or nothing, with a note for
 * stderr saying why (`promote` refuses a report without them).
 */
export function rolesRecord(
  tenant: string,
  start: RolesListing | undefined,
  end: RolesListing | undefined,
  ignore: readonly string[],
): { record?: RolesDigestRecord; note?: string } {
  const problem = (start && 'problem' in start && start.problem) || (end && 'problem' in end && end.problem);
  if (problem) {
    return { note: `note: could not list the Roles of tenant ${tenant} (${problem}): the report records no Roles digest, and roleflow promote refuses it` };
  }
  if (start === undefined || end === undefined || !('digest' in start) || !('digest' in end)) return {};
  return { record: { start: start.digest, end: end.digest, ...(ignore.length > 0 && { ignore: [...ignore] }) } };
}
