import { describe, expect, it } from 'vitest';
import { applyPhases, applySummaryLine, blockedReason, outcomeLine, outcomeOf, summarizeOutcomes } from '../../../src/core/apply/index.js';
import type { PlanChange } from '../../../src/core/roles/index.js';

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
