import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { RoleflowError } from '../../src/core/errors.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/emulator.js';
import { loadConfig } from '../../src/files/config-file.js';
import { rolesDirOf } from '../../src/files/role-files.js';
import { readJournal, type JournalStore } from '../../src/core/apply/history/index.js';
import { applyPlan } from '../../src/run/roles/apply-session.js';
import { driftDocument as drift } from '../../src/run/history/drift.js';
import { journalMeta, openJournal, withJournal } from '../../src/run/journal.js';
import { makeFreshPlan } from '../../src/run/roles/fresh-plan.js';
import { planRollback } from '../../src/run/history/rollback.js';
import { historyDocument as history, showRecord } from '../../src/run/history/history.js';
import { openTenant } from '../../src/tenant/open-tenant.js';
import { mutations, requestCount, tenantState, TOKEN } from '../cli/roles-kit.js';
import { journalRepo, type JournalRepo } from '../cli/journal-kit.js';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';

const validHistory = compileSchema(loadSchema('history'));
const validDrift = compileSchema(loadSchema('drift'));

const env = { ROLEFLOW_TOKEN: TOKEN };

/** What `apply --auto-approve` does, through the run/ functions: a fresh plan, journalled, carried out. */
async function apply(r: JournalRepo, opts: { prune?: boolean; targets?: string[] } = {}, store?: JournalStore) {
  const config = await loadConfig(r.p.dir, undefined, env);
  const fresh = await makeFreshPlan({
    cwd: r.p.dir,
    config,
    rolesDir: rolesDirOf(r.p.dir, config, undefined),
    prune: opts.prune,
    allowEmptyPrune: false,
    open: () => openTenant({ config, flags: { tenant: 'prod' }, env, cwd: r.p.dir }),
    now: new Date(),
    ...(opts.targets && { targets: opts.targets }),
  });
  const warnings: string[] = [];
  try {
    const journal = { store: store ?? openJournal(r.p.dir, config, fresh.tenant), command: 'apply' as const, meta: await journalMeta(r.p.dir, env, config), warn: (l: string) => warnings.push(l) };
    const run = await withJournal(fresh.plan, fresh.remote, journal, () => applyPlan(fresh.plan, fresh.tenant.client, { concurrency: 2, protect: [], stopped: () => false }));
    return { ...run, warnings, plan: fresh.plan };
  } finally {
    await fresh.tenant.close();
  }
}

const ports = (config: Awaited<ReturnType<typeof loadConfig>>, dir: string) => ({ open: () => openTenant({ config, flags: { tenant: 'prod' }, env, cwd: dir }), warn: () => undefined });

describe('the journal of applies', () => {
  it('appends a started line before the first change and the outcome after, with who, which commit and the state', async () => {
    const r = await journalRepo();
    const first = await r.commit({ a: 'A1', b: 'B1' });
    const run = await apply(r);
    expect(run.journal.error).toBeUndefined();
    const lines = (await readFile(join(r.p.dir, '.roleflow/history/prod.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { status: string }).status)).toEqual(['started', 'completed']);
    const [record] = await r.journal();
    expect(record).toMatchObject({ id: run.journal.id, actor: 'Dev Eloper', commit: first, ref: 'refs/heads/main', command: 'apply', tenant: 'prod', status: 'completed', run_url: null });
    expect(record!.dirty).toBeUndefined();
    expect(record!.changes.map((c) => [c.action, c.name, c.outcome])).toEqual([['create', 'a', 'done'], ['create', 'b', 'done']]);
    expect(Object.keys(record!.state!)).toEqual(['a', 'b']);
    // In CI: the actor, ref and run come from GitHub's variables.
    await r.commit({ a: 'A2' });
    const config = await loadConfig(r.p.dir, undefined, env);
    const meta = await journalMeta(r.p.dir, { GITHUB_ACTOR: 'octocat', GITHUB_REF: 'refs/heads/release', GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/roles', GITHUB_RUN_ID: '7' }, config);
    expect(meta).toMatchObject({ actor: 'octocat', ref: 'refs/heads/release', run_url: 'https://github.example/acme/roles/actions/runs/7', dirty: false });
    await r.p.write('roles/a.md', 'uncommitted');
    expect((await journalMeta(r.p.dir, env, config)).dirty).toBe(true);
  });

  it('stops before anything is sent when the journal cannot be written', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    // A file where the journal's folder should be.
    await mkdir(join(r.p.dir, '.roleflow'), { recursive: true });
    await writeFile(join(r.p.dir, '.roleflow/history'), 'not a folder');
    const before = requestCount(r.em);
    await expect(apply(r)).rejects.toThrow(/^cannot (read|create|write) the apply journal.*: nothing was applied \(the journal is written before the first change\)$/);
    expect(mutations(r.em, before)).toEqual([]);
    expect(tenantState(r.em)).toEqual([]);
  });

  it('stops before anything is sent when the started line cannot be written', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    const before = requestCount(r.em);
    const refusing = { kind: 'file' as const, where: 'j.jsonl', read: () => Promise.resolve(''), append: () => Promise.reject(new RoleflowError('cannot write the apply journal j.jsonl: ENOSPC')) };
    await expect(apply(r, {}, refusing)).rejects.toThrow('cannot write the apply journal j.jsonl: ENOSPC: nothing was applied (the journal is written before the first change)');
    expect(mutations(r.em, before)).toEqual([]);
  });

  it('says so when the final line cannot be written, and the record then reads as interrupted', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    const config = await loadConfig(r.p.dir, undefined, env);
    const fresh = await makeFreshPlan({ cwd: r.p.dir, config, rolesDir: rolesDirOf(r.p.dir, config, undefined), prune: false, allowEmptyPrune: false, open: ports(config, r.p.dir).open, now: new Date() });
    const warned: string[] = [];
    const file = openJournal(r.p.dir, config, fresh.tenant);
    let appends = 0;
    // A disk that fills up during the apply: the second line does not fit.
    const store = { ...file, append: (text: string) => (++appends === 1 ? file.append(text) : Promise.reject(new RoleflowError(`cannot write the apply journal ${file.where}: ENOSPC`))) };
    const run = await withJournal(fresh.plan, fresh.remote, { store, command: 'apply', meta: await journalMeta(r.p.dir, env, config), warn: (l) => warned.push(l) }, () =>
      applyPlan(fresh.plan, fresh.tenant.client, { concurrency: 1, protect: [], stopped: () => false }),
    );
    await fresh.tenant.close();
    expect(run.journal.error).toMatch(/^cannot write the apply journal .roleflow\/history\/prod.jsonl: ENOSPC: record \S+ was not completed and reads as interrupted$/);
    expect(tenantState(r.em)).toEqual(['a: a role / A1']);
    expect(warned[0]).toMatch(/^error: cannot write the apply journal/);
    expect((await r.journal())[0]!.status).toBe('interrupted');
  });

  it('keeps the journal in the tenant\'s reserved Role with history.store: tenant, which plans leave alone', async () => {
    const r = await journalRepo('history: { store: tenant, keep: 2 }\nroles: { prune: true }\n');
    await r.commit({ a: 'A1' });
    await apply(r);
    await r.commit({ a: 'A2' });
    await apply(r);
    await r.commit({ a: 'A3' });
    const third = await apply(r);
    const held = r.em.roles().find((role) => role.name === 'roleflow.history')!;
    const { records } = readJournal(held.content);
    // The last two records, each whole.
    expect(records.map((x) => [x.id, x.status])).toEqual([[expect.any(String), 'completed'], [third.journal.id, 'completed']]);
    // With prune on, the plan neither deletes it nor lists it.
    expect(third.plan.changes.map((c) => c.name)).toEqual(['a']);
    expect(tenantState(r.em)).toContain('a: a role / A3');
    const config = await loadConfig(r.p.dir, undefined, env);
    const listed = await history({ cwd: r.p.dir, config, tenant: 'prod', limit: 10 }, ports(config, r.p.dir));
    expect(listed.store).toEqual({ kind: 'tenant', role: 'roleflow.history' });
    expect(validHistory(listed), JSON.stringify(validHistory.errors)).toBe(true);
    // Each record of the journal is a record as the schema says.
    for (const record of records) expect(validHistory(record), JSON.stringify(validHistory.errors)).toBe(true);
    expect(listed.records.map((x) => x.id)[0]).toBe(third.journal.id);
  });

  it('records an apply with nothing to do only when it tells the journal something new', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    await call(r.em, 'POST', '/admin/roles/create', { body: { name: 'a', description: 'a role', content: 'A1' } });
    // The tenant already matches: the first such apply records the state, later ones nothing.
    const first = await apply(r);
    expect(first.plan.changes).toEqual([]);
    expect((await r.journal()).map((x) => [x.status, x.changes.length, Object.keys(x.state ?? {})])).toEqual([['completed', 0, ['a']]]);
    await apply(r);
    expect(await r.journal()).toHaveLength(1);
  });
});

describe('drift, history and rollback through the run/ functions', () => {
  it('classifies a hand edit as drifted and a merge not applied as pending, sending nothing', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1', b: 'B1' });
    await apply(r);
    const id = r.em.roles().find((x) => x.name === 'a')!.id;
    await call(r.em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'a role', content: 'hand edit' } });
    await r.commit({ b: 'B2' });
    const config = await loadConfig(r.p.dir, undefined, env);
    const before = requestCount(r.em);
    const doc = await drift({ cwd: r.p.dir, config, tenants: ['prod'], roles: undefined }, ports(config, r.p.dir));
    expect(r.em.requests().slice(before).every((q) => q.method === 'GET')).toBe(true);
    expect(validDrift(doc), JSON.stringify(validDrift.errors)).toBe(true);
    const [tenant] = doc.tenants;
    expect(tenant && 'roles' in tenant && tenant.roles.map((x) => [x.name, x.status])).toEqual([['a', 'drifted'], ['b', 'pending']]);
  });

  it('plans the way back to a commit, and to the tenant before a record, hand edits included', async () => {
    const r = await journalRepo();
    const first = await r.commit({ a: 'A1', b: 'B1' });
    await apply(r);
    const id = r.em.roles().find((x) => x.name === 'a')!.id;
    await call(r.em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'a role', content: 'hand edit' } });
    await r.commit({ a: 'A2', b: null, c: 'C1' });
    const second = await apply(r, { prune: true });
    const config = await loadConfig(r.p.dir, undefined, env);
    const toCommit = await planRollback({ cwd: r.p.dir, config, to: first.slice(0, 8), prune: true, allowEmptyPrune: false, now: new Date() }, { open: ports(config, r.p.dir).open, warn: () => undefined });
    await toCommit.tenant.close();
    expect(toCommit.rollbackOf).toBe(first);
    expect(toCommit.plan.changes.map((c) => [c.action, c.name, c.after?.content])).toEqual([['update', 'a', 'A1'], ['create', 'b', 'B1'], ['delete', 'c', undefined]]);
    // Before record 2 the tenant held the hand edit, which the journal kept.
    const toRecord = await planRollback({ cwd: r.p.dir, config, to: second.journal.id!, prune: true, allowEmptyPrune: false, now: new Date() }, { open: ports(config, r.p.dir).open, warn: () => undefined });
    await toRecord.tenant.close();
    expect(toRecord.plan.changes.map((c) => [c.action, c.name, c.after?.content])).toEqual([['update', 'a', 'hand edit'], ['create', 'b', 'B1'], ['delete', 'c', undefined]]);
    const shown = await showRecord({ cwd: r.p.dir, config, tenant: 'prod', id: second.journal.id!, diff: true }, ports(config, r.p.dir));
    expect(shown.diffs!.map((d) => [d.before && 'content' in d.before ? d.before.content : d.before, d.after && 'content' in d.after ? d.after.content : d.after])).toEqual([
      ['hand edit', 'A2'],
      [undefined, 'C1'],
      ['B1', undefined],
    ]);
    await expect(planRollback({ cwd: r.p.dir, config, to: 'nope', prune: false, allowEmptyPrune: false, now: new Date() }, { open: ports(config, r.p.dir).open, warn: () => undefined })).rejects.toThrow(
      /^"nope" is neither a journal record of tenant "prod" \(roleflow history lists them\) nor a commit of this repository$/,
    );
  });
});
