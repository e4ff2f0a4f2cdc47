/**
 * Where a tenant's journal is kept (`history.store` in the config): a file of the repository's
 * `.roleflow/history/` (src/files/journal-file.ts) or the tenant's reserved Role
 * (src/tenant/journal-role.ts). Both append whole lines and never rewrite one.
 */
export interface JournalStore {
  /** How a message names it: `.roleflow/history/staging.jsonl`, `the tenant's Role roleflow.history`. */
  readonly where: string;
  readonly kind: 'file' | 'tenant';
  /** Its text ('' when there is none yet). */
  read(): Promise<string>;
  /** Add these lines (each ending in `\n`) at the end, all or none; a failure is a RoleflowError naming the store. */
  append(text: string): Promise<void>;
}
