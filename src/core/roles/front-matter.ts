/**
 * Splitting a role file into its YAML front-matter and its content.
 *
 * Not gray-matter: it closes the front-matter at any line *starting* with `---` (so `----` leaves
 * `-` in the content), keeps the rest of the closing line in the content, reads `---yaml` as a
 * language tag and treats a never-closed front-matter as the whole file with empty content, and it
 * caches results module-wide. The content rule needs exact line semantics, so the split is here.
 */

export type FrontMatterSplit =
  | { ok: true; yaml: string; content: string }
  | { ok: false; line: number; message: string };

/**
 * The first line must be `---`; the front-matter ends at the next line that is `---` (trailing
 * spaces and tabs allowed on both, LF or CRLF). Content is everything after that line, minus one
 * final `\n` or `\r\n`.
 */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const firstEnd = text.indexOf('\n');
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (!isDelimiter(firstLine)) {
    return { ok: false, line: 1, message: 'no front-matter: a role file starts with a "---" line, then name and description' };
  }
  if (firstEnd === -1) return unclosed();
  let lineStart = firstEnd + 1;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart);
    // Only a line that starts with `---` is cut out and checked: most lines are keys.
    if (text.startsWith('---', lineStart) && isDelimiter(text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd))) {
      const body = lineEnd === -1 ? '' : text.slice(lineEnd + 1);
      return { ok: true, yaml: text.slice(firstEnd + 1, lineStart), content: withoutFinalLineBreak(body) };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return unclosed();
}

/** The content rule: one final line break is the file's, not the content's. */
export function withoutFinalLineBreak(body: string): string {
  if (body.endsWith('\r\n')) return body.slice(0, -2);
  if (body.endsWith('\n')) return body.slice(0, -1);
  return body;
}

function isDelimiter(line: string): boolean {
  return /^---[ \t]*\r?$/.test(line);
}

function unclosed(): FrontMatterSplit {
  return { ok: false, line: 1, message: 'front-matter is not closed: add a "---" line after the last key' };
}
