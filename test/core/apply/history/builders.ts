import type { ApplyOutcome } from '../../../../src/core/apply/index.js';
import { outcomeOf } from '../../../../src/core/apply/index.js';
import type { JournalDraft, JournalMeta, JournalRecord } from '../../../../src/core/apply/history/index.js';
import type { Role } from '../../../../src/core/model.js';
import { computePlan, type Plan } from '../../../../src/core/plan/index.js';
import type { RoleFile } from '../../../../src/core/roles/index.js';

/** In-memory builders for the journal's pure parts. */

export function file(name: string, content: string, description = 'd'): RoleFile {
  return { file: `roles/${name}.md`, name, description, content, at: { name: { line: 2, col: 1 } } };
}

export function role(id: string, name: string, content: string, description = 'd'): Role {
  return { id, name, description, content };
}

export function planOf(files: RoleFile[], remote: Role[], opts: { prune?: boolean; targets?: string[] } = {}): Plan {
  return computePlan(files, remote, { prune: opts.prune ?? true, protect: [], ignore: [], tenant: { name: 'prod', baseUrl: 'https://t.example' }, ...(opts.targets && { targets: opts.targets }) });
}

export const META: JournalMeta = { actor: 'alice', commit: 'c'.repeat(40), ref: 'refs/heads/main', run_url: null, dirty: false };

export function draft(plan: Plan, remote: Role[], previous: JournalRecord[] = [], meta: Partial<JournalMeta> = {}, id = 'r1'): JournalDraft {
  return { id, time: '2026-01-01T00:00:00.000Z', meta: { ...META, ...meta }, command: 'apply', plan, remote, previous };
}

/** Every change of `plan` done (creates get ids `new-0`, `new-1`…), except those `failed` names. */
export function outcomes(plan: Plan, failed: string[] = []): ApplyOutcome[] {
  return plan.changes.map((c, i) => {
    if (failed.includes(c.name)) return outcomeOf(c, 'failed', { error: 'HTTP 500' });
    const status = c.action === 'create' ? 'created' : c.action === 'update' ? 'updated' : 'deleted';
    return { ...outcomeOf(c, status), ...(c.action === 'create' ? { id: `new-${i}` } : {}) };
  });
}
