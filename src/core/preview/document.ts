import type { PreviewComparison, TestPreview } from './compare.js';

export const PREVIEW_FORMAT_VERSION = 1;

/** `roleflow preview --json` (schemas/preview.schema.json): what every other format renders. */
export interface PreviewDocument {
  format_version: typeof PREVIEW_FORMAT_VERSION;
  tenant: string;
  /** The base: git REF's Roles (`--base`), or an earlier run's report (`--base-report`). */
  base: { ref: string | null; commit: string | null; report?: string; age?: string };
  /** The work tree's Roles: the commit checked out, and whether files differ from it (null: unknown). */
  head: { commit: string | null; dirty: boolean | null };
  /** A Role on the tenant changed while a side's tests ran, by someone else: the comparison cannot be trusted. */
  contaminated: boolean;
  /** What changed, one line each (empty unless contaminated). */
  contamination: string[];
  /** Ctrl-C stopped the run: the tests that did not run on a side show as skipped or not in it. Absent when it ran to the end. */
  interrupted?: true;
  /** Executions started, both sides. */
  executions: number;
  summary: PreviewComparison['summary'];
  tests: TestPreview[];
}

export function previewDocument(fields: Omit<PreviewDocument, 'format_version' | 'summary' | 'tests'>, comparison: PreviewComparison): PreviewDocument {
  return { format_version: PREVIEW_FORMAT_VERSION, ...fields, summary: comparison.summary, tests: comparison.tests };
}
