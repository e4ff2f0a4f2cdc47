import { randomUUID } from 'node:crypto';
import type { Role, RoleFields } from '../../core/model.js';
import type { RoleText } from './role-refs.js';

export type LastUpdateField = 'last_updated' | 'last_update';

/** One change, as the data log records it: a Role as the service answers it (create, update) or a deleted id. */
export type RoleChange = { put: string } | { delete: string };

/**
 * The tenant's Roles in creation order. Each Role is held only as the JSON the service answers
 * for it, serialized once per change: reads send it as is, and a store of many Roles holds one
 * string per Role rather than an object and its strings twice over (less for the GC to trace).
 * The full list is kept as ready-to-send bytes until the next change.
 */
export class RoleStore {
  private readonly byId = new Map<string, string>();
  /** Each Role's name, in the same order as `byId`. */
  private readonly nameById = new Map<string, string>();
  /** What `byName` answered since the last change: executions of one flow share the same strings. */
  private readonly named = new Map<string, RoleText | undefined>();
  private listBody: Buffer | undefined;
  private readonly clock = new IsoClock();

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
    this.listBody ??= Buffer.from(`[${Array.from(this.byId.values()).join(',')}]`);
    return this.listBody;
  }

  /** One Role as the service answers it, or undefined. */
  json(id: string): string | undefined {
    return this.byId.get(id);
  }

  /**
   * The content and description of the Role named `name` (what a flow runs with), or undefined.
   * Names are not unique: of several, the first created.
   */
  byName(name: string): RoleText | undefined {
    if (this.named.has(name)) return this.named.get(name);
    let found: RoleText | undefined;
    for (const [id, held] of this.nameById) {
      if (held !== name) continue;
      const { content, description } = JSON.parse(this.byId.get(id)!) as RoleText;
      found = { content, description };
      break;
    }
    this.named.set(name, found);
    return found;
  }

  create(fields: RoleFields): string {
    const now = this.clock.now();
    const id = randomUUID();
    this.changed({ put: this.put({ id, name: fields.name, description: fields.description, content: fields.content, createdAt: now, lastUpdated: now }) });
    return id;
  }

  /** false when no Role has this id. */
  update(id: string, fields: RoleFields): boolean {
    const old = this.byId.get(id);
    if (old === undefined) return false;
    const { created_at: createdAt } = JSON.parse(old) as { created_at?: string };
    const role = { id, name: fields.name, description: fields.description, content: fields.content, createdAt, lastUpdated: this.clock.now() };
    this.changed({ put: this.put(role) });
    return true;
  }

  /** false when no Role has this id. */
  delete(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.nameById.delete(id);
    this.named.clear();
    this.changed({ delete: id });
    return true;
  }

  /** The Roles in the `Role` shape (a test hook): read back from their JSON. */
  snapshot(): Role[] {
    return Array.from(this.byId.values(), (json) => {
      const r = JSON.parse(json) as Record<string, string | undefined>;
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

  private put(role: Role): string {
    const json = JSON.stringify({
      id: role.id,
      name: role.name,
      description: role.description,
      content: role.content,
      created_at: role.createdAt,
      [this.lastUpdateField]: role.lastUpdated,
    });
    this.byId.set(role.id, json);
    this.nameById.set(role.id, role.name);
    this.named.clear();
    return json;
  }

  private changed(change: RoleChange): void {
    this.listBody = undefined;
    this.onChange(change);
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
