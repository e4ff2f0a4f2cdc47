import { GITHUB_COMMENT_LIMIT } from '../../src/core/plan/index.js';
import { codeBlock, mdCode } from '../../src/core/plan/render/markdown-parts.js';

export { GITHUB_COMMENT_LIMIT, mdCode };

/** GitHub keeps at most 1 MiB of job summary per step. */
export const SUMMARY_MAX_BYTES = 1024 * 1024;

/** A little room under the limit, for the separator between our summary and any before it. */
const SUMMARY_MARGIN = 4 * 1024;

/**
 * The longest rendering that fits the step summary in bytes: `render(maxChars)` cuts by
 * characters, and a character is up to 4 bytes, so the budget shrinks until the bytes fit.
 */
export function fitSummary(render: (maxChars: number) => string): string {
  const maxBytes = SUMMARY_MAX_BYTES - SUMMARY_MARGIN;
  let maxChars = maxBytes;
  for (;;) {
    const text = render(maxChars);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= maxBytes || maxChars <= maxBytes / 4) return text;
    maxChars = Math.floor((maxChars * maxBytes) / bytes) - 1;
  }
}

/** Text in a code block whose fence no line of the text can close. */
export function fenced(text: string, lang = ''): string {
  return `${codeBlock(text, lang)}\n`;
}

/** The last `maxLines` lines of a command's output, each at most `maxChars` long. */
export function tailLines(text: string, maxLines = 40, maxChars = 300): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  const kept = lines.slice(-maxLines).map((l) => (l.length > maxChars ? `${l.slice(0, maxChars)}…` : l));
  return (lines.length > maxLines ? [`… ${lines.length - maxLines} earlier lines in the log`, ...kept] : kept).join('\n');
}

/** When roleflow stopped without a result: what it said, for the comment and the summary. */
export function failureMarkdown(opts: { heading: string; what: string; code: number; stderr: string }): string {
  const said = tailLines(opts.stderr);
  return [
    opts.heading,
    '',
    `> [!CAUTION]`,
    `> ${opts.what} failed (exit code ${opts.code}).`,
    '',
    ...(said === '' ? [] : [fenced(said, 'text')]),
  ].join('\n');
}

/**
 * `top`, then a table of as many `rows` as fit in `maxChars` (in order), then — when some did
 * not fit — `omission(hidden)`, which says so.
 */
export function fitTable(top: string, tableHead: string, rows: readonly string[], maxChars: number, omission: (hidden: number) => string): string {
  let budget = maxChars - top.length - 1 - tableHead.length;
  if (rows.reduce((n, row) => n + row.length, 0) <= budget) return `${top}\n${tableHead}${rows.join('')}`;
  budget -= omission(rows.length).length;
  let shown = 0;
  while (shown < rows.length && rows[shown]!.length <= budget) budget -= rows[shown++]!.length;
  return `${top}\n${tableHead}${rows.slice(0, shown).join('')}${omission(rows.length - shown)}`;
}
