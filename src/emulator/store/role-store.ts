import { randomUUID } from 'node:crypto';
import type { Role, RoleFields } from '../../core/model.js';
import type { RoleText } from './role-refs.js';

export type LastUpdateField = 'last_updated' | 'last_update';

/** One change, as the data log records it: a Role as the service answers it (create, update) or a deleted id. */
export type RoleChange = { put: string } | { delete: string };

/**
 * The tenant's Roles in creation order. Each Role is held as the JSON the service answers for it
 * (with its name, for `byName`): reads send it as is, and a store of many Roles holds one string
 * per Role rather than an object and its strings twice over (less for the GC to trace). With no
 * `onChange` (no data log to write), a change keeps the Role's fields and serializes them at the
 * first read of that Role (the same text: the fields are strings, never changed): creates under
 * load are not each serialized for nothing. The full list is kept as ready-to-send bytes until the
 * next change. One Map holds it all: a create under load costs one insert into a large table.
 */
export class RoleStore {
  /** Each Role: serialized, or (no `onChange`) its fields until it is first read. */
  private readonly byId = new Map<string, Serialized | Role>();
  /** What `byName` answered since the last change: executions of one flow share the same strings. */
  private readonly named = new Map<string, RoleText | undefined>();
  private listBody: Buffer | undefined;
  private readonly clock = new IsoClock();

  constructor(
    private readonly lastUpdateField: LastUpdateField,
    private readonly onChange?: ((change: RoleChange) => void) | undefined,
  ) {}

  /** Put back Roles read from a data file, keeping their ids and timestamps. */
  restore(roles: readonly Role[]): void {
    for (const role of roles) this.serialize(role);
    this.forgetNames();
    this.listBody = undefined;
  }

  /** The body of `GET /admin/roles/get`: a JSON array of every Role. */
  listJson(): Buffer {
    if (this.listBody === undefined) {
      const parts: string[] = [];
      for (const held of this.byId.values()) parts.push(held instanceof Serialized ? held.json : this.serialize(held));
      this.listBody = Buffer.from(`[${parts.join(',')}]`);
    }
    return this.listBody;
  }

  /** One Role as the service answers it, or undefined. */
  json(id: string): string | undefined {
    const held = this.byId.get(id);
    return held === undefined ? undefined : held instanceof Serialized ? held.json : this.serialize(held);
  }

  /**
   * The content and description of the Role named `name` (what a flow runs with), or undefined.
   * Names are not unique: of several, the first created.
   */
  byName(name: string): RoleText | undefined {
    if (this.named.has(name)) return this.named.get(name);
    let found: RoleText | undefined;
    for (const held of this.byId.values()) {
      if (held.name !== name) continue;
      const { content, description } = this.fieldsOf(held);
      found = { content, description };
      break;
    }
    this.named.set(name, found);
    return found;
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
    const { createdAt } = this.fieldsOf(old);
    this.put({ id, name: fields.name, description: fields.description, content: fields.content, createdAt, lastUpdated: this.clock.now() });
    return true;
  }

  /** false when no Role has this id. */
  delete(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.forgetNames();
    this.listBody = undefined;
    this.onChange?.({ delete: id });
    return true;
  }

  /** The Roles in the `Role` shape (a test hook). */
  snapshot(): Role[] {
    return Array.from(this.byId.values(), (held) => this.fieldsOf(held));
  }

  /** Keep a Role (new or changed) and tell `onChange`, which gets it serialized now. */
  private put(role: Role): void {
    this.forgetNames();
    this.listBody = undefined;
    if (this.onChange === undefined) this.byId.set(role.id, role);
    else this.onChange({ put: this.serialize(role) });
  }

  /** A Role's JSON as the service answers it, held from now on in place of its fields. */
  private serialize(role: Role): string {
    const json = JSON.stringify({
      id: role.id,
      name: role.name,
      description: role.description,
      content: role.content,
      created_at: role.createdAt,
      [this.lastUpdateField]: role.lastUpdated,
    });
    this.byId.set(role.id, new Serialized(role.name, json));
    return json;
  }

  /** A held Role in the `Role` shape: read back from its JSON, or a copy of its fields. */
  private fieldsOf(held: Serialized | Role): Role {
    if (!(held instanceof Serialized)) return { ...held };
    const r = JSON.parse(held.json) as Record<string, string | undefined>;
    return {
      id: r['id']!,
      name: r['name']!,
      description: r['description']!,
      content: r['content']!,
      createdAt: r['created_at'],
      lastUpdated: r[this.lastUpdateField],
    };
  }

  /** Names may now answer differently (clearing an empty Map still allocates its table anew). */
  private forgetNames(): void {
    if (this.named.size > 0) this.named.clear();
  }
}

/** A Role as the service answers it, and its name. */
class Serialized {
  constructor(
    readonly name: string,
    readonly json: string,
  ) {}
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
