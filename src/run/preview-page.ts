import { resolve } from 'node:path';
import type { Redactor } from '../core/redact.js';
import { writeFileAtomic } from '../files/role-files.js';
import { displayPath } from '../files/source-files.js';
import { renderPreviewHtml } from '../report/preview-html.js';
import type { PreviewOutcome } from './preview.js';

/** `preview --reporter`: html=FILE only (the page of both sides); one line when anything else is asked. */
export function previewHtmlFile(specs: readonly string[]): { ok: true; value: string | undefined } | { ok: false; error: string } {
  let file: string | undefined;
  for (const spec of specs) {
    const match = /^html=(.+)$/.exec(spec);
    if (!match) return { ok: false, error: `--reporter ${spec}: preview writes one reporter, html=FILE (the text, markdown and JSON go to stdout: --format)` };
    file = match[1]!;
  }
  return { ok: true, value: file };
}

/** Write the HTML page of a preview; its path as messages show it. */
export async function writePreviewHtml(cwd: string, file: string, outcome: PreviewOutcome, redactor: Redactor): Promise<string> {
  const abs = resolve(cwd, file);
  await writeFileAtomic(abs, renderPreviewHtml(redactor.values(outcome.document), redactor.values(outcome.reports)));
  return displayPath(cwd, abs);
}
