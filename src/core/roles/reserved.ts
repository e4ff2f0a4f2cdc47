/**
 * The one Role name roleflow keeps for itself: with `history.store: tenant` the apply journal is
 * this Role's content. Plans, prune, pull and targets never see a Role of this name, and no role
 * file may claim it.
 */
export const HISTORY_ROLE = 'roleflow.history';

/** The tenant's Roles that roleflow manages or may: all but its journal. */
export function withoutJournalRole<T extends { name: string }>(roles: readonly T[]): T[] {
  return roles.some((r) => r.name === HISTORY_ROLE) ? roles.filter((r) => r.name !== HISTORY_ROLE) : [...roles];
}
