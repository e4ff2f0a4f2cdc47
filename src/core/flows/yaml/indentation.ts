import { printableLine } from '../../roles/display.js';

/** A misindented line: where it starts (1-based) and what is wrong, in words. */
export interface IndentationMistake {
  line: number;
  col: number;
  message: string;
}

interface Level {
  /** 0-based column where the block's keys (or its items' `- `) start. */
  col: number;
  kind: 'map' | 'seq';
  /** 1-based line that started the block. */
  line: number;
}

/**
 * The first line of a YAML text whose indentation is wrong, read as a person reads it: each line
 * starts at the column of a block around it (keys of a mapping, `- ` of a list), or deeper only
 * under a line that opens a block (`key:`, `-`). The YAML library, meeting such a line, often
 * complains at another one (the line before, the next item) in its own terms; this names the line
 * and says what would fit. Undefined when every line fits (the problem is something else). A
 * heuristic: block scalars, flow collections over several lines and continued plain values are
 * stepped over, other rarer forms may fool it, so callers use it only where the library failed.
 */
export function indentationMistake(text: string): IndentationMistake | undefined {
  const lines = text.split('\n');
  const stack: Level[] = [];
  let opens = false;
  let scalarUnder: number | undefined;
  let flowDepth = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    const content = raw.replace(/^[ \t]+/, '');
    const col = raw.length - content.length;
    const line = i + 1;
    if (content === '' || content.startsWith('#')) continue;
    if (scalarUnder !== undefined && col > scalarUnder) continue;
    scalarUnder = undefined;
    if (flowDepth > 0) {
      flowDepth = Math.max(0, flowDepth + bracketDelta(content));
      continue;
    }
    const tab = raw.slice(0, col).indexOf('\t');
    if (tab >= 0) return { line, col: tab + 1, message: 'a tab in the indentation: YAML indents with spaces only' };
    if (/^(---|\.\.\.)(\s|$)/.test(content)) {
      stack.length = 0;
      opens = false;
      continue;
    }
    const shown = `"${snippet(content)}"`;
    const isItem = /^-(\s|$)/.test(content);
    let popped: Level | undefined;
    while (stack.length > 0 && stack.at(-1)!.col > col) popped = stack.pop();
    const top = stack.at(-1);
    if (top !== undefined && col > top.col) {
      if (popped !== undefined) {
        return { line, col: col + 1, message: `bad indentation: ${shown} starts at column ${col + 1}, where no block around it does: the lines near it start at column ${popped.col + 1} (line ${popped.line}) or column ${top.col + 1} (line ${top.line})` };
      }
      if (!opens || (!isItem && !isKey(content))) {
        // A plain value going on over lines is deeper too; a key or an item cannot be.
        if (!isItem && !isKey(content)) {
          scalarUnder = top.col;
          continue;
        }
        return { line, col: col + 1, message: `bad indentation: ${shown} is indented under line ${line - previousLine(lines, i)}, which holds a value and so opens no block: start it at column ${top.col + 1}, like the lines before it` };
      }
      stack.push({ col, kind: isItem ? 'seq' : 'map', line });
    } else if (top === undefined) {
      stack.push({ col, kind: isItem ? 'seq' : 'map', line });
    } else if (top.kind === 'seq' && !isItem) {
      // `key:` then `- item` at the key's column, then the next key: the list is over.
      const parent = stack.at(-2);
      if (parent?.col !== col || parent.kind !== 'map') {
        return { line, col: col + 1, message: `bad indentation: ${shown} is at the column of the list items ("- " on line ${top.line}): indent it to column ${col + 3} to belong to the item above, or start a new item with "- "` };
      }
      stack.pop();
      parent.line = line;
    } else if (top.kind === 'map' && isItem) {
      if (!opens) return { line, col: col + 1, message: `bad indentation: the list item ${shown} is at the column of the keys of line ${top.line}, and no key before it opens a list` };
      stack.push({ col, kind: 'seq', line });
    } else if (top.kind === 'map' && !isKey(content)) {
      return { line, col: col + 1, message: `bad indentation: ${shown} is among the keys of line ${top.line} but is not a key (key: value): indent it deeper to go on with the value above, or add the ":"` };
    } else {
      top.line = line;
    }
    // What the line opens: an item's own keys, a block under it, a block scalar, a flow collection.
    const inner = isItem ? content.replace(/^-\s*/, '') : content;
    const innerCol = col + (content.length - inner.length);
    if (isItem && inner !== '' && isKey(inner)) stack.push({ col: innerCol, kind: 'map', line });
    const value = withoutComment(inner);
    opens = value === '' || /:$/.test(value) || /:\s+[&!]\S*$/.test(value);
    if (/(^|:\s+)[|>][-+0-9]*$/.test(value)) scalarUnder = isItem ? col : innerCol;
    const flow = /(^|:\s+)([[{].*)$/.exec(value);
    if (flow) flowDepth = Math.max(0, bracketDelta(flow[2]!));
  }
  return undefined;
}

/** `key: value`, `key:`, `"quoted key": value`, `? key`. */
function isKey(content: string): boolean {
  return /^\?(\s|$)/.test(content) || /^("[^"]*"|'[^']*'|[^\s#'"{[\]},][^#]*?):(\s|$)/.test(content);
}

function withoutComment(content: string): string {
  return content.replace(/\s+#.*$/, '').trimEnd();
}

/** Brackets opened less closed, outside quotes. */
function bracketDelta(content: string): number {
  const bare = withoutComment(content).replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '');
  let delta = 0;
  for (const ch of bare) delta += ch === '[' || ch === '{' ? 1 : ch === ']' || ch === '}' ? -1 : 0;
  return delta;
}

/** How many lines back the last line with something on it is. */
function previousLine(lines: readonly string[], i: number): number {
  for (let back = 1; back <= i; back++) {
    const t = lines[i - back]!.trim();
    if (t !== '' && !t.startsWith('#')) return back;
  }
  return 1;
}

function snippet(content: string): string {
  const text = printableLine(withoutComment(content));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
