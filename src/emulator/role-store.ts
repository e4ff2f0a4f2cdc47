import { randomUUID } from 'node:crypto';
import type { Role, RoleFields } from '../core/model.js';

export type LastUpdateField = 'last_updated' | 'last_update';

/** One change, as the data log records it: a Role as the service answers it (create, update) or a deleted id. */
export type RoleChange = { put: string } | { delete: string };

/**
 * The tenant's Roles in creation order, each held as the JSON the service answers for it (one
 * string per Role: little for the GC to trace in a large store). The JSON is made when first
 * needed: at the change when changes are logged (`onChange`, the data file), else at the first
 * read — until then the Role is held as its fields. The full list is kept as ready-to-send bytes
 * until the next change.
 */
export class RoleStore {
  private readonly byId = new Map<string, string | Role>();
  private listBody: Buffer | undefined;
  private readonly clock = new IsoClock();

  constructor(
    private readonly lastUpdateField: LastUpdateField,
    private readonly onChange?: (change: RoleChange) => void,
  ) {}

  /** Put back Roles read from a data file, keeping their ids and timestamps. */
  restore(roles: readonly Role[]): void {
    for (const role of roles) this.byId.set(role.id, this.toJson(role));
    this.listBody = undefined;
  }

  /** The body of `GET /admin/roles/get`: a JSON array of every Role. */
  listJson(): Buffer {
    this.listBody ??= Buffer.from(`[${Array.from(this.byId.values(), (held) => this.answer(held)).join(',')}]`);
    return this.listBody;
  }

  /** One Role as the service answers it, or undefined. */
  json(id: string): string | undefined {
    const held = this.byId.get(id);
    return held === undefined ? undefined : this.answer(held);
  }

  create(fields: RoleFields): string {
    const now = this.clock.now();
    const id = randomUUID();
    this.put({ id, name: fields.name, description: fields.description, content: fields.content, createdAt: now, lastUpdated: now });
    return id;
  }

  /** false when no Role has this id. */
  update(id: string, fields: RoleFields): boolean {
    const old = this.byId.get(id);
    if (old === undefined) return false;
    const createdAt = typeof old === 'string' ? (JSON.parse(old) as { created_at?: string }).created_at : old.createdAt;
    this.put({ id, name: fields.name, description: fields.description, content: fields.content, createdAt, lastUpdated: this.clock.now() });
    return true;
  }

  /** false when no Role has this id. */
  delete(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.listBody = undefined;
    this.onChange?.({ delete: id });
    return true;
  }

  /** The Roles in the `Role` shape (a test hook). */
  snapshot(): Role[] {
    return Array.from(this.byId.values(), (held) => {
      if (typeof held !== 'string') return { ...held };
      const r = JSON.parse(held) as Record<string, string | undefined>;
      return {
        id: r['id']!,
        name: r['name']!,
        description: r['description']!,
        content: r['content']!,
        createdAt: r['created_at'],
        lastUpdated: r[this.lastUpdateField],
      };
    });
  }

  private put(role: Role): void {
    this.listBody = undefined;
    if (this.onChange === undefined) {
      this.byId.set(role.id, role);
      return;
    }
    const json = this.toJson(role);
    this.byId.set(role.id, json);
    this.onChange({ put: json });
  }

  /** The JSON of a held Role, made and kept on its first read. */
  private answer(held: string | Role): string {
    if (typeof held === 'string') return held;
    const json = this.toJson(held);
    this.byId.set(held.id, json); // an existing key keeps its place
    return json;
  }

  private toJson(role: Role): string {
    return JSON.stringify({
      id: role.id,
      name: role.name,
      description: role.description,
      content: role.content,
      created_at: role.createdAt,
      [this.lastUpdateField]: role.lastUpdated,
    });
  }
}

/** `new Date().toISOString()`, formatted once per millisecond however many Roles change in it. */
class IsoClock {
  private ms = -1;
  private text = '';

  now(): string {
    const ms = Date.now();
    if (ms !== this.ms) {
      this.ms = ms;
      this.text = new Date(ms).toISOString();
    }
    return this.text;
  }
}
