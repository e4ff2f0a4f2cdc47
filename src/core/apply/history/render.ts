import { contentDiff } from '../../plan/content-diff.js';
import { diffLines } from '../../plan/render/text.js';
import { escapeControls } from '../../text/safe-text.js';
import { showName } from '../../roles/display.js';
import { HISTORY_FORMAT_VERSION, type JournalChange, type JournalRecord, type RoleContent } from './record.js';

/** `history --json` (`schemas/history.schema.json`): the newest records first, without the content they keep. */
export interface HistoryDocument {
  format_version: typeof HISTORY_FORMAT_VERSION;
  tenant: string;
  /** `file` (with its path) or `tenant` (the reserved Role). */
  store: { kind: 'file'; path: string } | { kind: 'tenant'; role: string };
  /** Records in the journal, all of them. */
  total: number;
  records: Omit<JournalRecord, 'before_content'>[];
  /** Lines that were not records, skipped. */
  skipped: { line: number; reason: string }[];
}

/** `+1 ~3 -0`: the changes of a record by action. */
export function changeCounts(changes: readonly JournalChange[]): string {
  const n = (action: string): number => changes.filter((c) => c.action === action).length;
  return `+${n('create')} ~${n('update')} -${n('delete')}`;
}

/** The table of `history`: id, when, who, commit, changes, status; newest first. */
export function renderHistoryText(doc: HistoryDocument): string {
  if (doc.records.length === 0) return `No journal records for tenant ${showName(doc.tenant)} (${storeText(doc.store)}).`;
  const rows = doc.records.map((r) => [r.id, when(r.time), escapeControls(r.actor) || '-', r.commit?.slice(0, 7) ?? '-', changeCounts(r.changes), statusText(r)]);
  const head = ['ID', 'WHEN', 'WHO', 'COMMIT', 'CHANGES', 'STATUS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const more = doc.total > doc.records.length ? [`(${doc.records.length} of ${doc.total} records; --limit N shows more)`] : [];
  return [line(head), ...rows.map(line), ...more].join('\n');
}

export function storeText(store: HistoryDocument['store']): string {
  return store.kind === 'file' ? escapeControls(store.path) : `the tenant's Role ${store.role}`;
}

function statusText(r: Pick<JournalRecord, 'status' | 'command' | 'rollback_of' | 'preview'>): string {
  const what = [r.command !== 'apply' && r.command, r.rollback_of !== undefined && `of ${escapeControls(/^[0-9a-f]{40,64}$/.test(r.rollback_of) ? r.rollback_of.slice(0, 12) : r.rollback_of)}`].filter((p) => p !== false).join(' ');
  return `${r.status}${what === '' ? '' : ` (${what})`}`;
}

/** `2026-11-28 06:43:26Z` from an ISO time; anything else as it is. */
function when(time: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(time);
  return m ? `${m[1]} ${m[2]}Z` : escapeControls(time) || '-';
}

/** A change's content on each side for `history show --diff`: found, or why not (`missing`). */
export type ShownSide = RoleContent | { missing: string } | undefined;

/** `history show ID`: the record, a line per change, and with `diffs` each change's content diff. */
export function renderRecordText(record: JournalRecord, diffs?: readonly { before: ShownSide; after: ShownSide }[]): string {
  const out = [
    `Record ${record.id}: ${statusText(record)}`,
    `  tenant:   ${showName(record.tenant)}`,
    `  started:  ${escapeControls(record.time)}${record.finished_at === undefined ? '' : `, finished ${escapeControls(record.finished_at)}`}`,
    `  by:       ${escapeControls(record.actor) || '-'}`,
    `  commit:   ${record.commit ?? '-'}${record.ref === null ? '' : ` (${escapeControls(record.ref)})`}${record.dirty ? ', with uncommitted changes to the role files or config' : ''}`,
    ...(record.run_url === null ? [] : [`  run:      ${escapeControls(record.run_url)}`]),
    `  plan:     ${record.plan_digest}`,
    ...(record.rollback_of === undefined ? [] : [`  rollback of ${escapeControls(record.rollback_of)}`]),
    ...(record.status === 'interrupted' && record.finished_at === undefined ? ['  It was never completed: the process ended during the apply. The outcomes below are unknown; `roleflow drift` and `plan` show where the tenant stands.'] : []),
    '',
    record.changes.length === 0 ? 'No changes (the apply found the tenant matching the files).' : `Changes (${changeCounts(record.changes)}):`,
  ];
  record.changes.forEach((c, i) => {
    const sign = c.action === 'create' ? '+' : c.action === 'update' ? '~' : '-';
    const renamed = c.renamed_from === undefined ? '' : ` (renamed from ${showName(c.renamed_from)})`;
    out.push(`  ${sign} ${c.action} ${showName(c.name)}${renamed}${c.id === undefined ? '' : ` id ${showName(c.id)}`}: ${c.outcome.replace('_', ' ')}`);
    const diff = diffs?.[i];
    if (diff !== undefined) out.push(...changeDiff(c, diff).map((l) => `      ${l}`));
  });
  return out.join('\n');
}

function changeDiff(change: JournalChange, sides: { before: ShownSide; after: ShownSide }): string[] {
  const missing = [sides.before, sides.after].flatMap((s) => (s !== undefined && 'missing' in s ? [s.missing] : []));
  if (missing.length > 0) return missing.map((m) => `(${escapeControls(m)})`);
  const before = sides.before as RoleContent | undefined;
  const after = sides.after as RoleContent | undefined;
  const lines: string[] = [];
  if (before !== undefined && after !== undefined && before.description !== after.description) {
    lines.push(`description: ${JSON.stringify(escapeControls(before.description))} -> ${JSON.stringify(escapeControls(after.description))}`);
  }
  if ((before?.content ?? '') !== (after?.content ?? '') || before === undefined || after === undefined) {
    lines.push(...diffLines(contentDiff(before?.content ?? '', after?.content ?? '', `${change.renamed_from ?? change.name} (before)`, `${change.name} (after)`)));
  }
  return lines;
}

/** `history show ID --json`: the record, and with `--diff` each change's sides (null: none) and the content's unified diff where both are known. */
export function recordDocument(tenant: string, record: JournalRecord, diffs?: readonly { before: ShownSide; after: ShownSide }[]): object {
  const sides = diffs?.map(({ before, after }, i) => {
    const name = record.changes[i]!.name;
    const missing = [before, after].some((side) => side !== undefined && 'missing' in side);
    const content = (side: ShownSide): string => (side !== undefined && 'content' in side ? side.content : '');
    return { before: before ?? null, after: after ?? null, ...(!missing && { diff: contentDiff(content(before), content(after), `${name} (before)`, `${name} (after)`) }) };
  });
  return { format_version: HISTORY_FORMAT_VERSION, tenant, record, ...(sides !== undefined && { diffs: sides }) };
}
