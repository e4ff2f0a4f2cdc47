import { randomUUID } from 'node:crypto';
import type { Role, RoleFields } from '../core/model.js';

export type LastUpdateField = 'last_updated' | 'last_update';

/** One change, as the data log records it: a Role as the service answers it (create, update) or a deleted id. */
export type RoleChange = { put: string } | { delete: string };

interface StoredRole {
  role: Role;
  /** The Role as the service answers it, serialized once per change. */
  json: string;
}

/**
 * The tenant's Roles in creation order. Reads are the hot path of the benchmark, so each Role is
 * serialized when it changes and the full list is kept as ready-to-send bytes until the next change.
 */
export class RoleStore {
  private readonly byId = new Map<string, StoredRole>();
  private listBody: Buffer | undefined;

  constructor(
    private readonly lastUpdateField: LastUpdateField,
    private readonly onChange: (change: RoleChange) => void = () => {},
  ) {}

  /** Put back Roles read from a data file, keeping their ids and timestamps. */
  restore(roles: readonly Role[]): void {
    for (const role of roles) this.put(role);
    this.listBody = undefined;
  }

  /** The body of `GET /admin/roles/get`: a JSON array of every Role. */
  listJson(): Buffer {
    this.listBody ??= Buffer.from(`[${Array.from(this.byId.values(), (r) => r.json).join(',')}]`);
    return this.listBody;
  }

  /** One Role as the service answers it, or undefined. */
  json(id: string): string | undefined {
    return this.byId.get(id)?.json;
  }

  create(fields: RoleFields): string {
    const now = new Date().toISOString();
    const id = randomUUID();
    this.changed({ put: this.put({ id, ...pick(fields), createdAt: now, lastUpdated: now }) });
    return id;
  }

  /** false when no Role has this id. */
  update(id: string, fields: RoleFields): boolean {
    const old = this.byId.get(id);
    if (!old) return false;
    this.changed({ put: this.put({ ...old.role, ...pick(fields), lastUpdated: new Date().toISOString() }) });
    return true;
  }

  /** false when no Role has this id. */
  delete(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.changed({ delete: id });
    return true;
  }

  snapshot(): Role[] {
    return Array.from(this.byId.values(), (r) => ({ ...r.role }));
  }

  private put(role: Role): string {
    const json = JSON.stringify({
      id: role.id,
      name: role.name,
      description: role.description,
      content: role.content,
      created_at: role.createdAt,
      [this.lastUpdateField]: role.lastUpdated,
    });
    this.byId.set(role.id, { role, json });
    return json;
  }

  private changed(change: RoleChange): void {
    this.listBody = undefined;
    this.onChange(change);
  }
}

// Only the three stored fields: a request body may carry anything else, which the service ignores.
function pick(fields: RoleFields): RoleFields {
  return { name: fields.name, description: fields.description, content: fields.content };
}
