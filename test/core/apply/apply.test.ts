import { describe, expect, it } from 'vitest';
import {
  applyEnd,
  applyPhases,
  applySucceeded,
  applySummaryLine,
  blockedReason,
  concurrentDuplicates,
  duplicateLine,
  outcomeLine,
  outcomeOf,
  summarizeOutcomes,
} from '../../../src/core/apply/index.js';
import { nameStateHash } from '../../../src/core/plan/index.js';
import type { PlanChange } from '../../../src/core/plan/index.js';

const state = (name: string) => ({ name, description: 'd', content: 'c' });
const del = (name: string): PlanChange => ({ action: 'delete', name, id: `id-${name}`, before: state(name), remote_hash: 'h' });
const create = (name: string): PlanChange => ({ action: 'create', name, file: `roles/${name}.md`, after: state(name), remote_hash: 'h' });
const rename = (from: string, to: string): PlanChange => ({
  action: 'update', name: to, id: `id-${from}`, file: `roles/${to}.md`, before: state(from), after: state(to), fields: ['name'], remote_hash: 'h',
});

describe('apply phases', () => {
  it('runs each run of one action as a phase, in plan order', () => {
    const changes = [del('x'), rename('a', 'x'), rename('b', 'c'), create('y'), del('z'), del('w')];
    expect(applyPhases(changes)).toEqual([[0], [1, 2], [3], [4, 5]]);
    expect(applyPhases([])).toEqual([]);
  });

  it('skips a change that takes a name a failed change was to free', () => {
    const failed = new Map([['x', del('x')]]);
    expect(blockedReason(create('x'), failed)).toMatch(/delete of the Role holding this name failed/);
    expect(blockedReason(rename('a', 'x'), failed)).toMatch(/still taken/);
    expect(blockedReason(create('y'), failed)).toBeUndefined();
    expect(blockedReason(del('x'), failed)).toBeUndefined();
  });
});

describe('apply results', () => {
  it('says what happened to each Role, escaping what a terminal would act on', () => {
    expect(outcomeLine({ ...outcomeOf(create('a'), 'created'), id: 'id-1' })).toBe('+ created a (id id-1)');
    expect(outcomeLine(outcomeOf(rename('a', 'b'), 'updated'))).toBe('~ updated b (renamed from a; id id-a)');
    expect(outcomeLine(outcomeOf(del('x'), 'deleted', { already_gone: true }))).toBe('- deleted x (id id-x; already gone)');
    expect(outcomeLine(outcomeOf(create('evil\x1b[2J'), 'failed', { error: 'boom' }))).toBe('✗ failed to create "evil\\u001b[2J": boom');
  });

  it('sums up success, failure and interruption', () => {
    const ok = [outcomeOf(create('a'), 'created'), outcomeOf(del('b'), 'deleted')];
    expect(applySummaryLine(summarizeOutcomes(ok))).toBe('Apply complete: 1 created, 0 updated, 1 deleted.');
    const partial = [...ok, outcomeOf(create('c'), 'failed', { error: 'x' }), outcomeOf(create('d'), 'skipped')];
    expect(applySummaryLine(summarizeOutcomes(partial))).toBe('Apply failed: 2 of 4 changes failed; 2 succeeded (1 created, 0 updated, 1 deleted).');
    const stopped = [outcomeOf(create('a'), 'created'), outcomeOf(create('b'), 'not_started')];
    expect(applySummaryLine(summarizeOutcomes(stopped), true)).toBe('Apply interrupted: 1 of 2 changes done (1 created, 0 updated, 0 deleted); 1 not started.');
  });
});

describe('creates with an unknown outcome', () => {
  it('are neither success nor failure, and never make the apply complete', () => {
    const unknown = outcomeOf(create('a'), 'unknown', { error: 'POST /admin/roles/create: no response within 1000 ms; it had not appeared' });
    expect(outcomeLine(unknown)).toBe('? outcome unknown: create a: POST /admin/roles/create: no response within 1000 ms; it had not appeared');
    const all = summarizeOutcomes([unknown, outcomeOf(create('b'), 'unknown')]);
    expect(all).toMatchObject({ created: 0, failed: 0, unknown: 2 });
    expect(applySucceeded(all)).toBe(false);
    expect(applySummaryLine(all)).toBe('Apply failed: 2 of 2 changes with an unknown outcome; 0 succeeded.');
    const mixed = summarizeOutcomes([unknown, outcomeOf(create('b'), 'created'), outcomeOf(create('c'), 'failed', { error: 'x' })]);
    expect(applySummaryLine(mixed)).toBe('Apply failed: 1 of 3 changes failed, 1 with an unknown outcome; 1 succeeded (1 created, 0 updated, 0 deleted).');
    expect(applySummaryLine(summarizeOutcomes([outcomeOf(create('c'), 'failed', { error: 'x' })]))).toBe('Apply failed: 1 of 1 change failed; 0 succeeded.');
  });
});

describe('duplicates a concurrent apply created', () => {
  const role = (id: string, name: string, content = 'c') => ({ id, name, description: 'd', content });
  const changes = [create('a'), create('b'), create('c')];
  const created = (name: string, id: string) => ({ ...outcomeOf(create(name), 'created'), id });

  it('keep the lowest id of the identical copies, whichever apply looks', () => {
    const remote = [role('7', 'a'), role('3', 'a'), role('5', 'a'), role('9', 'b'), role('2', 'c'), role('1', 'c', 'other content')];
    const mine = [created('a', '7'), created('b', '9'), created('c', '2')];
    const theirs = [created('a', '3'), created('b', '9'), created('c', '2')];
    expect(concurrentDuplicates(changes, mine, remote)).toEqual([{ index: 0, keep: '3', remove: ['5', '7'] }]);
    // The other apply, seeing the same tenant, names the same survivor and the same copies.
    expect(concurrentDuplicates(changes, theirs, remote)).toEqual([{ index: 0, keep: '3', remove: ['5', '7'] }]);
  });

  it('notice when another apply already removed this apply\'s copy', () => {
    expect(concurrentDuplicates(changes, [created('a', '7')], [role('3', 'a')])).toEqual([{ index: 0, keep: '3', remove: [], gone: '7' }]);
  });

  it('leave alone what is not a create this apply made, and Roles that differ', () => {
    const remote = [role('1', 'a'), role('2', 'a', 'different'), role('4', 'b'), role('3', 'b')];
    const outcomes = [created('a', '1'), outcomeOf(create('b'), 'failed', { error: 'x' }), outcomeOf(create('c'), 'unknown')];
    expect(concurrentDuplicates(changes, outcomes, remote)).toEqual([]);
  });

  it('find a create whose outcome was unknown once it appeared, only when its name was free when planned', () => {
    const free = { ...create('a'), remote_hash: nameStateHash('a', []) };
    const taken = { ...create('b'), remote_hash: nameStateHash('b', [role('0', 'b', 'old')]) };
    const outcomes = [outcomeOf(free, 'unknown'), outcomeOf(taken, 'unknown')];
    const remote = [role('8', 'a'), role('4', 'a'), role('5', 'b')];
    expect(concurrentDuplicates([free, taken], outcomes, remote)).toEqual([{ index: 0, keep: '4', remove: ['8'], appeared: true }]);
    expect(concurrentDuplicates([free, taken], outcomes, [role('1', 'a', 'other')])).toEqual([]);
    expect(duplicateLine({ ...outcomeOf(free, 'created'), id: '4', appeared_late: true })).toBe('+ a appeared on the tenant after all (id 4)');
  });

  it('say what was kept and removed, and when this apply\'s own copy was removed by the other', () => {
    expect(duplicateLine({ ...created('a', '3'), created_id: '7' })).toBe(
      "= a: another apply created it at the same time; kept id 3 (the lowest), this apply's copy (id 7) was already removed",
    );
    expect(duplicateLine({ ...created('a', '3'), duplicates_removed: ['5', '7'] })).toBe(
      '= a: another apply created it at the same time; kept id 3 (the lowest), removed 2 copies (id 5, 7)',
    );
  });
});

describe('how a failed apply ends', () => {
  const refused = outcomeOf(create('big'), 'failed', { error: 'POST /admin/roles/create: 413 request body too large', refused: true });
  const lost = outcomeOf(create('other'), 'failed', { error: 'POST /admin/roles/create: 503 service unavailable' });
  const converge = 'Run `roleflow apply` again: it plans from the tenant as it is now, so it converges.';
  const fixFirst = "The tenant refused the request for big as it was sent: applying again sends the same and fails the same; change the role file (or the tenant's limits) first.";

  it('advises changing a refused Role, not applying again, when that is all that failed', () => {
    const end = applyEnd({ outcomes: [refused], resolved: [], interrupted: false });
    expect(end.err).toContain(fixFirst);
    expect(end.err).not.toContain(converge);
  });

  it('advises both when a failure that converges is among them, and only applying again without a refusal', () => {
    expect(applyEnd({ outcomes: [refused, lost], resolved: [], interrupted: false }).err.slice(-2)).toEqual([fixFirst, converge]);
    expect(applyEnd({ outcomes: [lost], resolved: [], interrupted: false }).err.at(-1)).toBe(converge);
  });
});
