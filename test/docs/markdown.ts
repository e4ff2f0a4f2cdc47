import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * What the docs tests read in a markdown file: its fenced blocks, its links and its headings'
 * anchors (as GitHub makes them), and the `roleflow` command lines of its shell blocks.
 */

export interface FencedBlock {
  /** The info string's first word: `yaml`, `sh`, `console`, … (empty when none). */
  lang: string;
  /** The block's text, the fence's indentation removed, ending with a line break. */
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface Link {
  target: string;
  line: number;
}

/** Every fenced block (``` or ~~~), also inside list items. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(fence!) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line.trimStart());
    }
    blocks.push({ lang: lang!.toLowerCase(), text: body.map((l) => `${l}\n`).join(''), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The markdown outside fenced blocks, each line kept in its place (blocks become empty lines). */
function prose(markdown: string): string[] {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker !== undefined && line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      return '';
    }
    return line;
  });
}

/** Inline links and images `[text](target)` outside code, with their lines. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown).forEach((line, i) => {
    const text = line.replace(/`[^`]*`/g, '``');
    for (const m of text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: m[1]!, line: i + 1 });
  });
  return found;
}

/** The anchors GitHub gives the file's headings (github-slugger: lower case, punctuation dropped, spaces to `-`, repeats numbered). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '').replace(/<[^>]+>/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A relative link's file part and anchor (`docs/a.md#x` → `docs/a.md`, `x`); undefined for a URL or mail link. */
export function relativeTarget(target: string): { path: string; anchor?: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  return hash === -1 ? { path } : { path, anchor: target.slice(hash + 1) };
}

/**
 * The `roleflow` command lines of a shell block, as argv after `roleflow`. In `sh`, `bash` and
 * `shell` blocks every line is a command; in `console` blocks, the lines after a `$ ` prompt.
 * Comments, `&&`/`||`/`;`/`|` chains, a trailing `&`, redirections and leading `VAR=value`
 * assignments are handled as a shell would; `npx roleflow` counts as `roleflow`.
 */
export function roleflowCommands(block: FencedBlock): { argv: string[]; line: number }[] {
  const prompt = block.lang === 'console';
  const out: { argv: string[]; line: number }[] = [];
  const lines = block.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (prompt) {
      if (!line.startsWith('$ ')) continue;
      line = line.slice(2);
    }
    const at = block.line + 1 + i;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!}`;
    for (const words of commandsOf(line)) {
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
      if (words[0] === 'npx' && words[1] === 'roleflow') out.push({ argv: words.slice(2), line: at });
      else if (words[0] === 'roleflow') out.push({ argv: words.slice(1), line: at });
    }
  }
  return out;
}

/** A shell line split into its simple commands' words: quotes grouped, comments, operators and redirections dropped. */
function commandsOf(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote: string | undefined;
  let skipNext = false;
  const end = () => {
    if (word === undefined) return;
    if (skipNext) skipNext = false;
    else if (/^\d*(>>?|<)$/.test(word)) skipNext = true;
    else if (!/^\d*(>>?|<)/.test(word)) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else word = (word ?? '') + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '#' && word === undefined) break;
    else if (/\s/.test(c)) end();
    else if (c === '|' || c === ';' || c === '&') {
      end();
      if (line[i + 1] === c) i++;
      commands.push([]);
    } else word = (word ?? '') + c;
  }
  end();
  return commands.filter((c) => c.length > 0);
}

/**
 * Relative links of `file` (a path under `root`) that lead nowhere: a missing file or folder, a
 * path out of `root`, or a heading the target does not have.
 */
export function brokenLinks(root: string, file: string, markdown: string, exists: (path: string) => boolean = existsSync): string[] {
  return links(markdown).flatMap(({ target, line }) => {
    const rel = relativeTarget(target);
    if (rel === undefined) return [];
    const path = rel.path === '' ? join(root, file) : join(root, dirname(file), rel.path);
    if (!relative(root, path).split('/').every((part) => part !== '..') || !exists(path)) return [`${file}:${line}: ${target}: no such file`];
    if (rel.anchor === undefined || !path.endsWith('.md')) return [];
    const headings = anchors(rel.path === '' ? markdown : readFileSync(path, 'utf8'));
    return headings.has(rel.anchor) ? [] : [`${file}:${line}: ${target}: no heading #${rel.anchor}`];
  });
}
