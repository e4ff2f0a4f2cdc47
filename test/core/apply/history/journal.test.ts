import { describe, expect, it } from 'vitest';
import { finishedRecord, readJournal, recordLine, roleSha, startedRecord, trimJournal, type JournalRecord } from '../../../../src/core/apply/history/index.js';
import { draft, file, outcomes, planOf, role } from './builders.js';

const sha = (name: string, content: string, description = 'd') => roleSha({ name, description, content });

describe('the record of one apply', () => {
  it('says before anything is sent what each change will do, and after it how each ended', () => {
    const remote = [role('1', 'a', 'old'), role('2', 'gone', 'x')];
    const plan = planOf([file('a', 'new'), file('b', 'fresh')], remote);
    const d = draft(plan, remote);
    const started = startedRecord(d);
    expect(started.status).toBe('started');
    expect(started.changes).toEqual([
      { action: 'update', name: 'a', id: '1', before_sha256: sha('a', 'old'), after_sha256: sha('a', 'new'), outcome: 'not_started' },
      { action: 'create', name: 'b', after_sha256: sha('b', 'fresh'), outcome: 'not_started' },
      { action: 'delete', name: 'gone', id: '2', before_sha256: sha('gone', 'x'), outcome: 'not_started' },
    ]);
    const done = finishedRecord(d, outcomes(plan, ['gone']), false, '2026-01-01T00:00:05.000Z');
    expect(done.status).toBe('failed');
    expect(done.changes.map((c) => [c.name, c.id, c.outcome])).toEqual([['a', '1', 'done'], ['b', 'new-1', 'done'], ['gone', '2', 'failed']]);
    // The failed delete leaves its Role as it was.
    expect(done.state).toEqual({ a: sha('a', 'new'), b: sha('b', 'fresh'), gone: sha('gone', 'x') });
  });

  it('keeps the content of a Role it overwrites that no commit applied, and not the content a clean commit applied', () => {
    const first = planOf([file('a', 'v1')], []);
    const one = finishedRecord(draft(first, []), outcomes(first), false, 't');
    // Someone edited `a` by hand; the next apply overwrites the edit.
    const handEdited = [role('new-0', 'a', 'hand edit')];
    const second = planOf([file('a', 'v2')], handEdited);
    expect(startedRecord(draft(second, handEdited, [one])).before_content).toEqual({ [sha('a', 'hand edit')]: { name: 'a', description: 'd', content: 'hand edit' } });
    // v1 was applied from a clean commit: git holds it.
    const asApplied = [role('new-0', 'a', 'v1')];
    expect(startedRecord(draft(planOf([file('a', 'v2')], asApplied), asApplied, [one])).before_content).toBeUndefined();
    // …unless that apply was made from uncommitted files.
    const dirty = finishedRecord(draft(first, [], [], { dirty: true }), outcomes(first), false, 't');
    expect(startedRecord(draft(planOf([file('a', 'v2')], asApplied), asApplied, [dirty])).before_content).toHaveProperty(sha('a', 'v1'));
  });

  it('keeps no content holding a secret: a token pasted by hand is overwritten, never written to the journal', () => {
    const handEdited = [role('1', 'a', 'key: s3cret-t0ken-value'), role('2', 'b', 'hand edit')];
    const plan = planOf([file('a', 'v2'), file('b', 'v2')], handEdited);
    const d = { ...draft(plan, handEdited), holdsSecret: (text: string) => text.includes('s3cret-t0ken-value') };
    const started = startedRecord(d);
    expect(started.before_content).toEqual({ [sha('b', 'hand edit')]: { name: 'b', description: 'd', content: 'hand edit' } });
    expect(recordLine(started)).not.toContain('s3cret-t0ken-value');
  });

  it('records the whole managed state after a whole plan, and only the targets after a partial one', () => {
    const remote = [role('1', 'a', 'A'), role('2', 'b', 'B'), role('3', 'loose', 'L')];
    const whole = planOf([file('a', 'A'), file('b', 'B2')], remote, { prune: false });
    const one = finishedRecord(draft(whole, remote), outcomes(whole), false, 't');
    // `loose` has no file and prune is off: not managed.
    expect(one.state).toEqual({ a: sha('a', 'A'), b: sha('b', 'B2') });
    const later = [role('1', 'a', 'hand'), role('2', 'b', 'B2')];
    const partial = planOf([file('a', 'A'), file('b', 'B3')], later, { targets: ['b'] });
    const two = finishedRecord(draft(partial, later, [one]), outcomes(partial), false, 't');
    // `a` was not a target: its hand edit is not taken for applied.
    expect(two.state).toEqual({ a: sha('a', 'A'), b: sha('b', 'B3') });
  });

  it('says interrupted after Ctrl-C, the changes not started leaving their Roles as they were', () => {
    const remote = [role('1', 'a', 'A')];
    const plan = planOf([file('a', 'A2'), file('b', 'B')], remote);
    const outs = outcomes(plan).map((o) => (o.name === 'b' ? { ...o, status: 'not_started' as const, id: undefined } : o));
    const record = finishedRecord(draft(plan, remote), outs, true, 't');
    expect(record.status).toBe('interrupted');
    expect(record.state).toEqual({ a: sha('a', 'A2') });
  });
});

describe('reading a journal', () => {
  const started = (id: string): JournalRecord => startedRecord(draft(planOf([file('a', 'x')], []), [], [], {}, id));

  it('folds the lines of a record by id; a record never completed reads as interrupted', () => {
    const plan = planOf([file('a', 'x')], []);
    const d = draft(plan, [], [], {}, 'one');
    const text = recordLine(startedRecord(d)) + recordLine(started('two')) + recordLine(finishedRecord(d, outcomes(plan), false, 'later'));
    const { records, skipped } = readJournal(text);
    expect(skipped).toEqual([]);
    expect(records.map((r) => [r.id, r.status, r.finished_at])).toEqual([['one', 'completed', 'later'], ['two', 'interrupted', undefined]]);
    expect(records[0]!.time).toBe('2026-01-01T00:00:00.000Z');
  });

  it('reads the changes of a record never completed as of unknown outcome, not as not started', () => {
    // Killed midway: some of these changes were sent, and nothing says which.
    const [record] = readJournal(recordLine(started('killed'))).records;
    expect(record!.status).toBe('interrupted');
    expect(record!.changes.map((c) => c.outcome)).toEqual(['unknown']);
  });

  it('skips a line cut short, a line of another format and a hand-made line, saying which', () => {
    const good = recordLine(started('ok'));
    const text = `${good}{"format_version":1,"id":"cut","sta\n{"format_version":2,"id":"x","status":"completed","changes":[]}\n[1,2]\n`;
    const { records, skipped } = readJournal(text);
    expect(records.map((r) => r.id)).toEqual(['ok']);
    expect(skipped.map((s) => s.line)).toEqual([2, 3, 4]);
    expect(skipped[1]!.reason).toMatch(/format_version 2/);
  });

  it('keeps only what a record may hold, of its type, whatever a hand edit put there', () => {
    const line = JSON.stringify({ format_version: 1, id: 'h', status: 'completed', changes: [{ action: 'update', name: 'a', outcome: 'done', extra: 1 }, { action: 'explode' }], state: { PROTO: 'sha256:1', b: 2 }, commit: 5 }).replace('PROTO', '__proto__');
    const [record] = readJournal(line).records;
    expect(record!.changes).toEqual([{ action: 'update', name: 'a', outcome: 'done' }]);
    expect(record!.commit).toBeNull();
    expect(Object.keys(record!.state!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(record!.state)).toBe(Object.prototype);
  });

  it('trims to the last records within the bytes a Role holds, whole records only', () => {
    const text = ['a', 'b', 'c'].map((id) => recordLine(started(id)) + recordLine({ ...started(id), status: 'completed' })).join('');
    const kept = trimJournal(text, 2, 1_000_000)!;
    expect(readJournal(kept).records.map((r) => [r.id, r.status])).toEqual([['b', 'completed'], ['c', 'completed']]);
    const escaped = (record: JournalRecord) => JSON.stringify(recordLine(record).trimEnd()).length;
    const oneRecord = escaped(started('c')) + escaped({ ...started('c'), status: 'completed' }) + 10;
    expect(readJournal(trimJournal(text, 200, oneRecord)!).records.map((r) => r.id)).toEqual(['c']);
    expect(trimJournal(text, 200, 10)).toBeUndefined();
  });
});
