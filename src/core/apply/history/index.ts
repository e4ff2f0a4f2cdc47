/**
 * The apply journal, the pure parts (PRODUCT.md "History, rollback and drift"): the record
 * (`record.ts`), reading and trimming its lines (`journal-text.ts`), the record of one apply and
 * the state it leaves (`build.ts`), and `history`'s output (`render.ts`).
 */
export { changeOutcome, historyFileName, HISTORY_FORMAT_VERSION, HISTORY_ROLE, recordId, roleSha, type ChangeOutcome, type JournalChange, type JournalCommand, type JournalRecord, type JournalStatus, type RoleContent } from './record.js';
export { readJournal, recordLine, trimJournal, type ReadJournal } from './journal-text.js';
export { finishedRecord, lastState, shasInGit, startedRecord, stateAfter, type JournalDraft, type JournalMeta } from './build.js';
export { changeCounts, recordDocument, renderHistoryText, renderRecordText, storeText, type HistoryDocument, type ShownSide } from './render.js';
export type { JournalStore } from './store.js';
