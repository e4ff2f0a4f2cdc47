import { escapeControls } from './safe-text.js';

/** A 1-based position in a file. */
export interface Position {
  line: number;
  col: number;
}

/** A problem located in a file (1-based line and column). */
export interface Issue {
  file: string;
  line: number;
  col: number;
  message: string;
}

/** `file:line:col: message`, one line: a message quoting the file's text has its control characters escaped. */
export function formatIssue(issue: Issue): string {
  return `${escapeControls(issue.file)}:${issue.line}:${issue.col}: ${escapeControls(issue.message)}`;
}

/** Validation as data: commands decide what a failure means. */
export type Result<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };
