import { describe, expect, it } from 'vitest';
import { finishedRecord, renderHistoryText, renderRecordText, startedRecord, type HistoryDocument } from '../../../../src/core/apply/history/index.js';
import { draft, file, outcomes, planOf, role } from './builders.js';

const remote = [role('1', 'a', 'line 1\nline 2'), role('2', 'old', 'x')];
const plan = planOf([file('a', 'line 1\nline two'), file('b', 'B')], remote);
const record = finishedRecord(draft(plan, remote, [], { actor: 'alice\u001b[31m', run_url: 'https://github.example/r/actions/runs/7' }, '20260101-000000-ab12'), outcomes(plan, ['old']), false, '2026-01-01T00:00:09.000Z');

describe("history's output", () => {
  it('is a table of records, newest first, with who, the commit, the changes by action and the status', () => {
    const killed = { ...startedRecord(draft(plan, remote, [], {}, '20260102-000000-cd34')), status: 'interrupted' as const, command: 'rollback' as const, rollback_of: 'abc' };
    const doc: HistoryDocument = { format_version: 1, tenant: 'prod', store: { kind: 'file', path: '.roleflow/history/prod.jsonl' }, total: 3, records: [killed, record], skipped: [] };
    expect(renderHistoryText(doc).split('\n')).toEqual([
      'ID                    WHEN                  WHO              COMMIT   CHANGES   STATUS',
      '20260102-000000-cd34  2026-01-01 00:00:00Z  alice            ccccccc  +1 ~1 -1  interrupted (rollback of abc)',
      '20260101-000000-ab12  2026-01-01 00:00:00Z  alice\\u001b[31m  ccccccc  +1 ~1 -1  failed',
      '(2 of 3 records; --limit N shows more)',
    ]);
    expect(renderHistoryText({ ...doc, records: [], total: 0 })).toBe('No journal records for tenant prod (.roleflow/history/prod.jsonl).');
  });

  it('shows one record with each change, and its content diffs when asked', () => {
    const text = renderRecordText(record, [
      { before: { name: 'a', description: 'd', content: 'line 1\nline 2' }, after: { name: 'a', description: 'd', content: 'line 1\nline two' } },
      { before: undefined, after: { missing: 'not in git' } },
      { before: { name: 'old', description: 'd', content: 'x' }, after: undefined },
    ]);
    expect(text).toContain('Record 20260101-000000-ab12: failed');
    expect(text).toContain('  run:      https://github.example/r/actions/runs/7');
    expect(text).toContain('  ~ update a id 1: done\n      --- a (before)\n      +++ a (after)\n      @@ -1,2 +1,2 @@\n       line 1\n      -line 2\n      +line two');
    expect(text).toContain('  + create b id new-1: done\n      (not in git)');
    expect(text).toContain('  - delete old id 2: failed\n      --- old (before)\n      +++ old (after)');
  });

  it('says of a record never completed that the process ended during the apply', () => {
    const killed = { ...startedRecord(draft(plan, remote)), status: 'interrupted' as const };
    expect(renderRecordText(killed)).toContain('It was never completed: the process ended during the apply.');
    expect(renderRecordText(killed)).toContain('  + create b: not started');
  });
});
