import { RoleflowError } from '../core/errors.js';
import { HISTORY_ROLE, trimJournal, type JournalStore } from '../core/apply/history/index.js';
import { compare } from '../core/plan/index.js';
import type { Role, TenantClient } from '../core/model.js';
import { MAX_SENT_ROLE_BYTES } from '../core/roles/sent-size.js';

const DESCRIPTION = 'The apply journal of roleflow (history.store: tenant): one JSON record a line. Written by roleflow; do not edit.';

/** Room kept for the name, the description and the request's framing. */
const FRAMING = 1024;

/**
 * `history.store: tenant`: the journal is the content of the tenant's one reserved Role,
 * `roleflow.history`, so every CI run that reaches the tenant shares it. An append reads the Role,
 * adds the lines, keeps the last `keep` records within what a Role may hold, and writes it back:
 * the interface has no lock, so two applies at once may lose one's record (the workflows `init`
 * writes apply one at a time per tenant). Of several Roles of that name, the lowest id is the journal.
 */
export function tenantJournal(client: TenantClient, keep: number): JournalStore {
  const where = `the tenant's Role ${HISTORY_ROLE}`;
  let held: Role | undefined;
  const read = async (): Promise<string> => {
    const roles = (await client.listRoles()).filter((r) => r.name === HISTORY_ROLE);
    held = roles.sort((a, b) => compare(a.id, b.id))[0];
    return held?.content ?? '';
  };
  return {
    kind: 'tenant',
    where,
    read: () => read().catch((err: unknown) => {
      throw new RoleflowError(`cannot read the apply journal (${where}): ${message(err)}`);
    }),
    async append(text) {
      try {
        const now = await read();
        const joined = now === '' || now.endsWith('\n') ? now + text : `${now}\n${text}`;
        const content = trimJournal(joined, keep, MAX_SENT_ROLE_BYTES - FRAMING - Buffer.byteLength(DESCRIPTION));
        if (content === undefined) throw new RoleflowError('the record is larger than a Role can hold');
        const fields = { name: HISTORY_ROLE, description: DESCRIPTION, content };
        if (held === undefined) held = { id: (await client.createRole(fields)).id, ...fields };
        else await client.updateRole(held.id, fields);
      } catch (err) {
        throw new RoleflowError(`cannot write the apply journal (${where}): ${message(err)}`);
      }
    },
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
