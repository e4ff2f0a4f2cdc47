import { Composer, isMap, isPair, isScalar, isSeq, LineCounter, Parser, YAMLParseError, type CST, type Document, type Node } from 'yaml';
import type { Issue, Result } from './issues.js';

/** Limits that keep hostile YAML harmless. */
export const YAML_LIMITS = {
  /** Alias expansions allowed in one document (a "billion laughs" file needs thousands). */
  maxAliasCount: 100,
  /**
   * Collections nested in one another. roleflow's files need a handful; the YAML library recurses
   * per level and runs out of stack at a few hundred, so deeper text is refused before it is read.
   */
  maxDepth: 64,
} as const;

/** Keys that could reach an object's prototype in careless code; refused everywhere. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A parsed YAML document that can map a JSON pointer back to a line and column. */
export interface YamlSource {
  value: unknown;
  /** 1-based position of the node at `pointer` (ajv instance path), or of its closest parent. */
  locate(pointer: string, opts?: { key?: string }): { line: number; col: number };
}

export interface ParseYamlOptions {
  /** Name used in issues. */
  file: string;
  /** Lines before this text in its file (front-matter starts on line 2). */
  lineOffset?: number;
}

/**
 * Parse one YAML document. Syntax errors, duplicate keys, alias bombs and prototype keys are issues
 * located in the file; nothing here throws on bad input.
 */
export function parseYaml(text: string, opts: ParseYamlOptions): Result<YamlSource> {
  const lineOffset = opts.lineOffset ?? 0;
  const lineCounter = new LineCounter();
  const at = (offset: number): { line: number; col: number } => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, col: pos.col };
  };
  const issue = (offset: number, message: string): Issue => ({ file: opts.file, ...at(offset), message });
  // The syntax tree is made once: checked for depth, then composed (yaml's parseDocument, unrolled).
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
  const tooDeep = tooDeepAt(tokens);
  if (tooDeep !== undefined) {
    const before = text.slice(0, tooDeep);
    const pos = { line: before.split('\n').length + lineOffset, col: tooDeep - before.lastIndexOf('\n') };
    const message = `nested more than ${YAML_LIMITS.maxDepth} levels deep (the most roleflow reads)`;
    return { ok: false, issues: [{ file: opts.file, ...pos, message }] };
  }
  const doc = composeDocument(tokens, text.length);

  const issues: Issue[] = doc.errors.map((e) => issue(e.pos[0], firstLine(e.message)));
  if (issues.length === 0) issues.push(...forbiddenKeys(doc, issue));
  if (issues.length > 0) return { ok: false, issues };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (err) {
    const message = err instanceof Error ? firstLine(err.message) : String(err);
    return { ok: false, issues: [issue(0, `YAML refused: ${message}`)] };
  }
  const locate: YamlSource['locate'] = (pointer, locateOpts) =>
    at(offsetOf(doc, parsePointer(pointer), locateOpts?.key));
  return { ok: true, value: { value, locate } };
}

/** Split an ajv instance path (`/a/0/b`) into segments, unescaping `~1` and `~0`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  const segments = pointer.slice(1).split('/');
  // Loading a flow test locates each test and assertion: most pointers have nothing to unescape.
  if (!pointer.includes('~')) return segments;
  return segments.map(unescapeSegment);
}

/** One segment of a JSON pointer as the key it names (`~1` is `/`, `~0` is `~`). */
export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

function offsetOf(doc: Document, path: string[], key: string | undefined): number {
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  const segments = key === undefined ? path : [...path, key];
  for (const [i, seg] of segments.entries()) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) break;
      // An unknown key is reported at the key itself; anything else at its value.
      if (key !== undefined && i === segments.length - 1) return (pair.key as Node).range?.[0] ?? offset;
      next = pair.value ?? pair.key;
    } else if (isSeq(node)) {
      next = node.items[Number(seg)];
    }
    const range = (next as Node | undefined)?.range;
    if (!range) break;
    offset = range[0];
    node = next;
  }
  return offset;
}

/**
 * What `parseDocument(text, { uniqueKeys: true, strict: true })` of the yaml library gives, from the
 * tokens its parser made of `text` (yaml's public-api.js, without pretty errors): the first
 * document, and an error for any further one.
 */
function composeDocument(tokens: readonly CST.Token[], length: number): Document {
  let doc: Document | undefined;
  for (const next of new Composer({ uniqueKeys: true, strict: true }).compose(tokens, true, length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  return doc!;
}

/**
 * The offset of the first collection nested deeper than `YAML_LIMITS.maxDepth`, or undefined. It
 * reads the syntax tree of the YAML parser, which (unlike the composer) uses no recursion, and
 * walks it with a stack of its own, so no depth of nesting can exhaust the call stack here.
 */
function tooDeepAt(tokens: readonly CST.Token[]): number | undefined {
  // A stack of tokens and, at the same index, their depths (two arrays: no object per token).
  const pending: (CST.Token | null | undefined)[] = [...tokens];
  const depths: number[] = tokens.map(() => 0);
  while (pending.length > 0) {
    const token = pending.pop();
    const depth = depths.pop()!;
    if (!token) continue;
    if (token.type === 'document') {
      pending.push(token.value);
      depths.push(depth);
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > YAML_LIMITS.maxDepth) return token.offset;
    for (const item of token.items) {
      pending.push(item.key, item.value);
      depths.push(depth + 1, depth + 1);
    }
  }
  return undefined;
}

function forbiddenKeys(doc: Document, issue: (offset: number, message: string) => Issue): Issue[] {
  const found: Issue[] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isPair(pair) && isScalar(pair.key) && FORBIDDEN_KEYS.has(String(pair.key.value))) {
          found.push(issue(pair.key.range?.[0] ?? 0, `key "${String(pair.key.value)}" is not allowed`));
        }
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return found;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
