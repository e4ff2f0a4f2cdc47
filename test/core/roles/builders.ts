import { readFileSync } from 'node:fs';
import type { Role } from '../../../src/core/model.js';
import { type RoleFile } from '../../../src/core/roles/index.js';
import { computePlan, type Plan, type PlanOptions } from '../../../src/core/plan/index.js';

/** In-memory role files and remote Roles for the pure core's tests. */

export const roleSchema = JSON.parse(
  readFileSync(new URL('../../../schemas/role.schema.json', import.meta.url), 'utf8'),
) as object;

export const planSchema = JSON.parse(
  readFileSync(new URL('../../../schemas/plan.schema.json', import.meta.url), 'utf8'),
) as object;

export const TENANT = { name: 'local', baseUrl: 'http://127.0.0.1:7070' };

/** A remote Role; by default its fields are derived from the name. */
export function role(name: string, over: Partial<Role> = {}): Role {
  return { id: `id-${name}`, name, description: `${name} role`, content: `You are ${name}.`, ...over };
}

/** A role file; by default it matches `role(name)` field for field, without an id. */
export function file(name: string, over: Partial<RoleFile> = {}): RoleFile {
  const f: RoleFile = {
    file: `roles/${name}.md`,
    name,
    description: `${name} role`,
    content: `You are ${name}.`,
    at: { name: { line: 2, col: 1 }, ...(over.id === undefined ? {} : { id: { line: 4, col: 1 } }) },
    ...over,
  };
  return f;
}

export function plan(desired: RoleFile[], remote: Role[], options: Partial<PlanOptions> = {}): Plan {
  return computePlan(desired, remote, { prune: false, protect: [], ignore: [], tenant: TENANT, ...options });
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a generated case that fails can be replayed. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
