import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import type { HistoryDocument, JournalRecord } from '../../src/core/apply/history/index.js';
import { loadSchema } from '../../src/files/package-root.js';
import { call } from '../helpers/emulator.js';
import { journalRepo } from './journal-kit.js';
import { mutations, requestCount, roleText, runOnTerminal, tenantState, TOKEN } from './roles-kit.js';

const validHistory = compileSchema(loadSchema('history'));

describe('roleflow history', () => {
  it('lists two applies at two commits with their commits and changes, and shows one with its diffs', async () => {
    const r = await journalRepo();
    const first = await r.commit({ a: 'A1', b: 'B1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    const second = await r.commit({ a: 'A2', c: 'C1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);

    const listed = await r.cli(['history', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const doc = JSON.parse(listed.stdout) as HistoryDocument;
    expect(validHistory(doc), JSON.stringify(validHistory.errors)).toBe(true);
    expect(doc).toMatchObject({ tenant: 'prod', store: { kind: 'file', path: '.roleflow/history/prod.jsonl' }, total: 2 });
    expect(doc.records.map((x) => [x.commit, x.status, x.actor, x.changes.map((c) => `${c.action} ${c.name} ${c.outcome}`)])).toEqual([
      [second, 'completed', 'Dev Eloper', ['update a done', 'create c done']],
      [first, 'completed', 'Dev Eloper', ['create a done', 'create b done']],
    ]);

    const table = await r.cli(['history']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +WHEN +WHO +COMMIT +CHANGES +STATUS$/);
    expect(table.stdout).toContain(`${second.slice(0, 7)}  +1 ~1 -0  completed`);

    const id = doc.records[0]!.id;
    // The start of the id, long enough to name one record.
    let length = 9;
    while (doc.records[1]!.id.startsWith(id.slice(0, length))) length++;
    const shown = await r.cli(['history', 'show', id.slice(0, length), '--diff']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`Record ${id}: completed`);
    expect(shown.stdout).toContain('  ~ update a id');
    expect(shown.stdout).toContain('      -A1\n      +A2');
    const json = JSON.parse((await r.cli(['history', 'show', id, '--diff', '--json'])).stdout) as { record: JournalRecord; diffs: { before: unknown; after: { content: string } }[] };
    expect(validHistory(json), JSON.stringify(validHistory.errors)).toBe(true);
    expect(json.diffs.map((d) => [d.before === null ? null : (d.before as { content: string }).content, d.after.content])).toEqual([['A1', 'A2'], [null, 'C1']]);

    const missing = await r.cli(['history', 'show', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: no journal record "nope" for tenant "prod": roleflow history --tenant prod lists them\n');
  });
});

describe('roleflow history --tenant', () => {
  it('a tenant the config does not know, with no journal, is an error with a guess; a journal left by a tenant since removed is still read', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    const typo = await r.cli(['history', '--tenant', 'prd']);
    expect(typo).toMatchObject({ code: 1, stdout: '' });
    expect(typo.stderr).toBe('error: unknown tenant "prd" in roleflow.config.yaml (did you mean "prod"?); known: local, prod\n');
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    await r.p.write('roleflow.config.yaml', 'tenants: {}\n');
    const gone = await r.cli(['history', '--tenant', 'prod', '--json']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toMatchObject({ tenant: 'prod', total: 1 });
  });
});

describe('an apply stopped with Ctrl-C', () => {
  it('appends the interrupted record itself: what was done, what was not started, and the state it left', async () => {
    const r = await journalRepo('', { latencyMs: 100 });
    await r.commit({ a: 'A', b: 'B', c: 'C', d: 'D' });
    const run = await runOnTerminal(r.p, undefined, ['apply', '--auto-approve', '--concurrency', '1'], { interruptWhen: /\+ created a/, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(run.code).toBe(130);
    const [record] = await r.journal();
    expect(record!.status).toBe('interrupted');
    expect(record!.finished_at).toEqual(expect.any(String));
    const done = record!.changes.filter((c) => c.outcome === 'done').map((c) => c.name);
    expect(done.length).toBeGreaterThan(0);
    expect(record!.changes.filter((c) => c.outcome === 'not_started').length).toBeGreaterThan(0);
    expect(Object.keys(record!.state!)).toEqual(done);
  });
});

describe('roleflow rollback', () => {
  /** Commit one applied, then commit two applied with prune: `a` changed, `b` removed, `c` added. */
  async function twoCommits(config = '') {
    const r = await journalRepo(config);
    const first = await r.commit({ a: 'A1', b: 'B1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    await r.commit({ a: 'A2', b: null, c: 'C1' });
    expect((await r.cli(['apply', '--auto-approve', '--prune'])).code).toBe(0);
    return { r, first };
  }

  it('--to the first commit plans and applies exactly the way back, journalled as a rollback', async () => {
    const { r, first } = await twoCommits();
    const back = await r.cli(['rollback', '--to', first.slice(0, 10), '--prune', '--auto-approve']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`Rolling tenant prod back to commit ${first.slice(0, 7)} (${first.slice(0, 10)}).`);
    expect(back.stdout).toContain('Plan: 1 to create, 1 to update, 1 to delete.');
    expect(tenantState(r.em)).toEqual(['a: a role / A1', 'b: b role / B1']);
    const last = (await r.journal()).at(-1)!;
    expect(last).toMatchObject({ command: 'rollback', rollback_of: first, commit: first, status: 'completed' });
    // Without --prune the Role the first commit did not have stays, unmanaged.
    await r.commit({ c: 'C2' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    expect((await r.cli(['rollback', '--to', first, '--auto-approve'])).code).toBe(0);
    expect(tenantState(r.em)).toEqual(['a: a role / A1', 'b: b role / B1', 'c: c role / C2']);
  });

  it('--to a record puts back the tenant as it was right before it, a hand edit included', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    const id = r.em.roles()[0]!.id;
    await call(r.em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'a role', content: 'hot fix by hand' } });
    await r.commit({ a: 'A2' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    const record = (await r.journal()).at(-1)!;
    const back = await r.cli(['rollback', '--to', record.id, '--auto-approve']);
    expect(back.code, back.stderr).toBe(0);
    expect(tenantState(r.em)).toEqual(['a: a role / hot fix by hand']);
    expect((await r.journal()).at(-1)).toMatchObject({ command: 'rollback', rollback_of: record.id, commit: null });
  });

  it('keeps no hand edit holding the token: the journal never holds it, and rolling back to before it says so in one line', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    const id = r.em.roles()[0]!.id;
    await call(r.em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'a role', content: `pasted ${TOKEN} by hand` } });
    await r.commit({ a: 'A2' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(await r.p.read('.roleflow/history/prod.jsonl')).not.toContain(TOKEN);
    const record = (await r.journal()).at(-1)!;
    const before = requestCount(r.em);
    const back = await r.cli(['rollback', '--to', record.id, '--auto-approve']);
    expect(back.code).toBe(1);
    expect(back.stderr).toMatch(/^error: cannot roll tenant "prod" back to before record \S+: the content of "a" is neither kept by the journal/m);
    expect(mutations(r.em, before)).toEqual([]);
  });

  it('is refused by the guards of any plan, nothing sent', async () => {
    for (const config of ['roles: { protect: ["c"] }\n', 'roles: { max_deletes: 0 }\n']) {
      const { r, first } = await twoCommits();
      await r.p.write('roleflow.config.yaml', `${await r.p.read('roleflow.config.yaml')}${config}`);
      const before = requestCount(r.em);
      const refused = await r.cli(['rollback', '--to', first, '--prune', '--auto-approve']);
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr).toMatch(config.includes('protect') ? /protected/ : /max_deletes/);
      expect(mutations(r.em, before)).toEqual([]);
    }
  });

  it('saves the way back for review; apply carries it out as the rollback, or refuses it once the tenant moved', async () => {
    const { r, first } = await twoCommits();
    const saved = await r.cli(['rollback', '--to', first, '--prune', '--out', 'back.json']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain('Saved the plan to back.json. To carry out exactly this plan: roleflow apply back.json');
    const applied = await r.cli(['apply', 'back.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(tenantState(r.em)).toEqual(['a: a role / A1', 'b: b role / B1']);
    expect((await r.journal()).at(-1)).toMatchObject({ command: 'rollback', rollback_of: first, commit: first });
    // A saved plan of a tenant that changed since is refused.
    // Nothing more to go back: it names what the tenant matches.
    const same = await r.cli(['rollback', '--to', first, '--prune', '--out', 'same.json']);
    expect(same.stdout).toContain(`No changes. The tenant matches commit ${first.slice(0, 7)} (${first}).`);
    expect((await r.cli(['rollback', '--to', 'HEAD', '--prune', '--out', 'again.json'])).code).toBe(0);
    const id = r.em.roles().find((x) => x.name === 'a')!.id;
    await call(r.em, 'POST', '/admin/roles/update', { body: { id, name: 'a', description: 'a role', content: 'moved' } });
    expect((await r.cli(['apply', 'again.json'])).code).toBe(4);
  });

  it('refuses off a terminal without --auto-approve, and names an id or commit that does not exist in one line', async () => {
    const { r, first } = await twoCommits();
    const before = requestCount(r.em);
    const asked = await r.cli(['rollback', '--to', first, '--prune']);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain(`refusing to apply without confirmation: stdin is not a terminal. Add --auto-approve, or save a plan for review and apply it: roleflow rollback --to ${first} --out plan.json && roleflow apply plan.json`);
    expect(mutations(r.em, before)).toEqual([]);
    const unknown = await r.cli(['rollback', '--to', 'v9.9.9']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: "v9.9.9" is neither a journal record of tenant "prod" (roleflow history lists them) nor a commit of this repository\n');
  });
});

describe('roleflow drift', () => {
  async function applied() {
    const r = await journalRepo();
    await r.commit({ a: 'A1', b: 'B1' });
    expect((await r.cli(['apply', '--auto-approve'])).code).toBe(0);
    const edit = (name: string, content: string) => call(r.em, 'POST', '/admin/roles/update', { body: { id: r.em.roles().find((x) => x.name === name)!.id, name, description: `${name} role`, content } });
    return { r, edit };
  }

  it('calls a hand edit drifted (exit 5), a merge not applied pending (exit 2), both at once a conflict', async () => {
    const { r, edit } = await applied();
    expect((await r.cli(['drift', '--detailed-exitcode'])).code).toBe(0);
    await r.commit({ b: 'B2' });
    const pending = await r.cli(['drift', '--detailed-exitcode']);
    expect(pending.code).toBe(2);
    expect(pending.stdout).toContain('  > pending         b: the files changed since roleflow last applied them');
    expect(pending.stdout).toContain('roleflow apply --tenant prod --target b applies the files');
    await edit('a', 'edited by hand');
    const drifted = await r.cli(['drift', '--detailed-exitcode']);
    expect(drifted.code).toBe(5);
    expect(drifted.stdout).toContain('  ! drifted         a: changed on the tenant since roleflow last applied it');
    expect(drifted.stdout).toContain('roleflow pull --tenant prod --target a --force adopts');
    await edit('b', 'also by hand');
    const both = JSON.parse((await r.cli(['drift', '--json'])).stdout) as { tenants: { roles: { name: string; status: string }[] }[] };
    expect(both.tenants[0]!.roles.map((x) => [x.name, x.status])).toEqual([['a', 'drifted'], ['b', 'conflict']]);
    // Without --detailed-exitcode, a drift check that ran is exit 0.
    expect((await r.cli(['drift'])).code).toBe(0);
  });

  it('calls a Role made outside roleflow created outside, and one removed outside deleted outside, sending only GETs', async () => {
    const { r } = await applied();
    await call(r.em, 'POST', '/admin/roles/create', { body: { name: 'stray', description: '', content: 'made in the UI' } });
    await call(r.em, 'POST', '/admin/policies/delete', { body: { id: r.em.roles().find((x) => x.name === 'b')!.id } });
    const before = requestCount(r.em);
    const result = await r.cli(['drift', '--detailed-exitcode', '--json', '--notify', 'issue']);
    expect(result.code).toBe(5);
    expect(r.em.requests().slice(before).map((q) => q.method)).toEqual(expect.arrayContaining(['GET']));
    expect(r.em.requests().slice(before).every((q) => q.method === 'GET')).toBe(true);
    const doc = JSON.parse(result.stdout) as { tenants: { roles: { name: string; status: string }[]; issue: { open: boolean; body: string } }[] };
    expect(doc.tenants[0]!.roles.map((x) => [x.name, x.status])).toEqual([['stray', 'created_outside'], ['b', 'deleted_outside'], ['a', 'in_sync']]);
    expect(doc.tenants[0]!.issue.open).toBe(true);
    expect(doc.tenants[0]!.issue.body.startsWith('<!-- roleflow:drift:prod -->')).toBe(true);
    // drift.ignore hides it.
    await r.p.write('roleflow.config.yaml', `${await r.p.read('roleflow.config.yaml')}drift: { ignore: ["stray"] }\n`);
    const hidden = await r.cli(['drift']);
    expect(hidden.stdout).not.toContain('stray');
    expect(hidden.stdout).toContain('1 Role hidden by drift.ignore');
  });

  it('names the remedies that work: pull --target adopts a hand edit into its file, apply reverts one', async () => {
    const { r, edit } = await applied();
    await edit('a', 'adopt me');
    await edit('b', 'revert me');
    const adopted = await r.cli(['pull', '--tenant', 'prod', '--target', 'a', '--force']);
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(adopted.stdout).toContain('~ overwrote roles/a.md');
    expect(await r.p.read('roles/a.md')).toContain('adopt me');
    expect(await r.p.read('roles/b.md')).toContain('B1');
    const reverted = await r.cli(['apply', '--tenant', 'prod', '--target', 'b', '--auto-approve']);
    expect(reverted.code, reverted.stderr).toBe(0);
    const doc = JSON.parse((await r.cli(['drift', '--json'])).stdout) as { tenants: { roles: { name: string; status: string }[] }[] };
    expect(doc.tenants[0]!.roles.map((x) => [x.name, x.status])).toEqual([['a', 'in_sync'], ['b', 'in_sync']]);
  });

  it('the remedy it prints for a removed role file and for a Role made outside deletes them when run as printed', async () => {
    const { r } = await applied();
    await r.commit({ b: null });
    await call(r.em, 'POST', '/admin/roles/create', { body: { name: 'stray', description: '', content: 'made in the UI' } });
    const doc = JSON.parse((await r.cli(['drift', '--json'])).stdout) as { tenants: { roles: { name: string; status: string; remedy?: string }[] }[] };
    const roles = doc.tenants[0]!.roles;
    expect(roles.map((x) => [x.name, x.status])).toEqual([['stray', 'created_outside'], ['b', 'pending'], ['a', 'in_sync']]);
    for (const role of roles.slice(0, 2)) {
      // The first command of the remedy, the way a user pastes it (plus --auto-approve: no terminal here).
      const command = /^roleflow (apply [^;]*?) (?:applies|deletes)/.exec(role.remedy!.split('; ').find((c) => c.startsWith('roleflow apply'))!)![1]!;
      const ran = await r.cli([...command.split(' '), '--auto-approve']);
      expect(ran.code, `${command}: ${ran.stderr}`).toBe(0);
    }
    expect((await r.cli(['drift', '--detailed-exitcode'])).code).toBe(0);
    expect(r.em.roles().map((x) => x.name)).toEqual(['a']);
  });

  it('after adopting a tenant, an apply with nothing to do starts the journal, so a later hand edit reads as drifted', async () => {
    const r = await journalRepo();
    await call(r.em, 'POST', '/admin/roles/create', { body: { name: 'a', description: 'a role', content: 'A1' } });
    expect((await r.cli(['pull'])).code).toBe(0);
    await r.commit({});
    const nothing = await r.cli(['apply', '--auto-approve']);
    expect(nothing.stdout).toContain('No changes.');
    expect((await r.journal()).map((x) => [x.status, x.changes, Object.keys(x.state ?? {})])).toEqual([['completed', [], ['a']]]);
    // Again: nothing new to say, nothing written.
    await r.cli(['apply', '--auto-approve']);
    expect(await r.journal()).toHaveLength(1);
    await call(r.em, 'POST', '/admin/roles/update', { body: { id: r.em.roles()[0]!.id, name: 'a', description: 'a role', content: 'by hand' } });
    expect((await r.cli(['drift', '--detailed-exitcode'])).code).toBe(5);
  });

  it('without a journal, says each difference is unclassified (exit 2)', async () => {
    const r = await journalRepo();
    await r.commit({ a: 'A1' });
    const result = await r.cli(['drift', '--detailed-exitcode']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('the journal has no record, so differences cannot be told apart');
    expect(result.stdout).toContain('  ? unclassified    a:');
  });
});

describe("the journal's reserved Role", () => {
  it('is left alone by pull and prune, and no role file may claim it', async () => {
    const r = await journalRepo('history: { store: tenant }\n');
    await r.commit({ a: 'A1' });
    expect((await r.cli(['apply', '--auto-approve', '--prune'])).code).toBe(0);
    expect(r.em.roles().map((x) => x.name).sort()).toEqual(['a', 'roleflow.history']);
    expect((await r.cli(['plan', '--prune', '--detailed-exitcode'])).code).toBe(0);
    const pulled = await r.cli(['pull', '--roles', 'pulled']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).not.toContain('roleflow.history');
    const history = await r.cli(['history', '--json']);
    expect((JSON.parse(history.stdout) as HistoryDocument).store).toEqual({ kind: 'tenant', role: 'roleflow.history' });
    await r.p.write('roles/journal.md', roleText('roleflow.history', 'mine', 'x'));
    const claimed = await r.cli(['validate']);
    expect(claimed.code).toBe(1);
    expect(claimed.stderr).toContain('roles/journal.md:2:1: name "roleflow.history" is reserved');
  });
});
