import { onFirstUse } from '../../text/first-use.js';
import type { YamlSource } from '../../text/yaml-source.js';
import { offsetOf, type Placed } from './placed.js';
import { DECLINE, decline, plainValue, quotedScalar, RESERVED } from './simple-scalars.js';

/**
 * Flow test files in their everyday shape, read without the YAML parser: the `yaml` package's
 * lexer costs ~100 µs per test written with flow collections (`{ path: …, equals: … }`), most of
 * loading 1,000 tests. `undefined` means "not this shape": the caller then parses the text as
 * YAML, which stays the authority. This may decline anything; it must never read a value, or
 * place one, differently from `parseYaml` (test/core/flows/simple-yaml.test.ts proves it on
 * generated files).
 *
 * Accepted, and nothing else: one document that is a block mapping at column 1; lines separated
 * by `\n` holding only printable characters (no tab, no `\r`, no control or format character, no
 * separator but the space); blank lines and comment lines anywhere; block mappings and block
 * sequences (`- ` then one space; a sequence indented under its key), each value on its key's line
 * or a block nested on the following lines; flow mappings and sequences closed on the line they
 * open on, without trailing commas or implicit pairs; a comment after a value (` #`). Keys are
 * plain words (`[A-Za-z_][A-Za-z0-9_.-]*`, not a YAML keyword) or quoted, and unique in their
 * mapping, never `__proto__`, `constructor` or `prototype`. Values are
 * - plain scalars starting with a letter or digit, holding no `:` and no `#` (and, inside a flow
 *   collection, none of `,[]{}`), that are not a boolean, null or number word — except `true`,
 *   `false` (booleans) and up to 15 decimal digits (a number);
 * - double-quoted scalars on one line with no escape but `\\ \" \/ \n \t`, single-quoted scalars
 *   on one line (`''` is a quote).
 */
export function readSimpleYaml(text: string): YamlSource | undefined {
  if (BEYOND_PRINTABLE.test(text) && unsafeChars().test(text)) return undefined;
  try {
    const reader = new Reader(text);
    const root = reader.document();
    return {
      value: root.value,
      locate: (pointer, opts) => reader.position(offsetOf(root, pointer, opts?.key)),
    };
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/** Anything but the newline, printable ASCII and non-ASCII letters, marks, numbers, punctuation and symbols. */
const unsafeChars = onFirstUse(() => /[^\n\x20-\x7e\p{L}\p{M}\p{N}\p{P}\p{S}]/u);
/** Text with nothing but the newline and printable ASCII has none of them: the Unicode classes are needed only for text beyond. */
const BEYOND_PRINTABLE = /[^\n\x20-\x7e]/;
/** Sticky: matched where `lastIndex` says, in the whole text (no slice per key). */
const PLAIN_KEY = /[A-Za-z_][A-Za-z0-9_.-]*/y;
/** Where a plain scalar in a flow collection ends: `,[]{}:#`, or the line's end. */
const FLOW_PLAIN_END = /[,[\]{}:#\n]/g;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 32;

/** The content lines (neither blank nor a comment): where each starts, its indentation. */
interface Line {
  start: number;
  indent: number;
  end: number;
}

class Reader {
  private readonly lineStarts: number[] = [0];
  private readonly lines: Line[] = [];
  private li = 0;

  constructor(private readonly text: string) {
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let indent = start;
      while (text.charCodeAt(indent) === 32) indent++;
      if (indent < end && text[indent] !== '#') this.lines.push({ start, indent: indent - start, end });
      if (end < text.length) this.lineStarts.push(end + 1);
      start = end + 1;
    }
  }

  /** The 1-based line and column of an offset, as `LineCounter.linePos` gives them. */
  position(offset: number): { line: number; col: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - this.lineStarts[low]! + 1 };
  }

  document(): Placed {
    const first = this.lines[0];
    if (!first || first.indent !== 0) decline();
    const root = this.blockMap(first.start, 1);
    if (this.li !== this.lines.length) decline();
    return root;
  }

  /** A block node starting at offset `at` of the current line. */
  private block(at: number, depth: number): Placed {
    if (depth > MAX_DEPTH) decline();
    return this.text[at] === '-' ? this.blockSeq(at, depth) : this.blockMap(at, depth);
  }

  private blockSeq(at: number, depth: number): Placed {
    const line = this.lines[this.li]!;
    const col = at - line.start;
    const items: Placed[] = [];
    for (;;) {
      const current = this.lines[this.li]!;
      const dash = current.start + col;
      if (this.text[dash] !== '-' || this.text[dash + 1] !== ' ' || this.text[dash + 2] === ' ') decline();
      const itemAt = dash + 2;
      if (this.isKeyAt(itemAt)) items.push(this.blockMap(itemAt, depth + 1));
      else items.push(this.valueToLineEnd(itemAt, depth + 1));
      const next = this.lines[this.li];
      if (!next || next.indent < col) break;
      if (next.indent > col || this.text[next.start + col] !== '-') decline();
    }
    return { value: items.map((i) => i.value), at, items };
  }

  private blockMap(at: number, depth: number): Placed {
    const line = this.lines[this.li]!;
    const col = at - line.start;
    const value: Record<string, unknown> = {};
    const entries = new Map<string, { keyAt: number; node: Placed }>();
    for (let keyAt = at; ; ) {
      const key = this.key(keyAt);
      if (FORBIDDEN_KEYS.has(key.name) || entries.has(key.name)) decline();
      let pos = key.end + 1;
      const current = this.lines[this.li]!;
      if (pos < current.end && this.text[pos] !== ' ') decline();
      while (pos < current.end && this.text[pos] === ' ') pos++;
      let node: Placed;
      if (pos === current.end || this.text[pos] === '#') {
        this.li++;
        const nested = this.lines[this.li];
        if (!nested || nested.indent <= col) decline();
        node = this.block(nested.start + nested.indent, depth + 1);
      } else {
        node = this.valueToLineEnd(pos, depth + 1);
      }
      value[key.name] = node.value;
      entries.set(key.name, { keyAt, node });
      const next = this.lines[this.li];
      if (!next || next.indent < col) break;
      if (next.indent > col) decline();
      keyAt = next.start + col;
    }
    return { value, at, entries };
  }

  /** Whether a mapping key (then `:` and a space or the line's end) starts at `at`. */
  private isKeyAt(at: number): boolean {
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const end = this.quotedEnd(at);
      return end !== undefined && this.text[end] === ':';
    }
    const length = this.plainKeyLength(at);
    return length > 0 && this.text[at + length] === ':';
  }

  /** The key at `at` and the offset of the `:` after it. */
  private key(at: number): { name: string; end: number } {
    const line = this.lines[this.li]!;
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const scalar = quotedScalar(this.text, at, line.end);
      if (this.text[scalar.end] !== ':') decline();
      return { name: scalar.value, end: scalar.end };
    }
    const end = at + this.plainKeyLength(at);
    const name = this.text.slice(at, end);
    if (end === at || RESERVED.test(name) || this.text[end] !== ':') decline();
    return { name, end };
  }

  /** The length of the plain key at `at` (0 if none); keys never hold a line break. */
  private plainKeyLength(at: number): number {
    PLAIN_KEY.lastIndex = at;
    return PLAIN_KEY.test(this.text) ? PLAIN_KEY.lastIndex - at : 0;
  }

  /** A value on its line from `at` to the line's end (or a comment); moves to the next line. */
  private valueToLineEnd(at: number, depth: number): Placed {
    const line = this.lines[this.li]!;
    let node: Placed;
    let pos: number;
    const c = this.text[at];
    if (c === '{' || c === '[') {
      ({ node, end: pos } = this.flow(at, line.end, depth));
    } else if (c === '"' || c === "'") {
      const scalar = quotedScalar(this.text, at, line.end);
      node = { value: scalar.value, at };
      pos = scalar.end;
    } else {
      // Up to a comment on this line (a search of the line alone: the rest of the file may be long).
      const rest = this.text.slice(at, line.end);
      const comment = rest.indexOf(' #');
      node = { value: plainValue((comment >= 0 ? rest.slice(0, comment) : rest).trimEnd()), at };
      pos = comment >= 0 ? at + comment : line.end;
    }
    this.endOfLine(pos, line.end);
    this.li++;
    return node;
  }

  /** Only spaces, then the line's end or a comment after a space. */
  private endOfLine(pos: number, end: number): void {
    const from = pos;
    while (pos < end && this.text[pos] === ' ') pos++;
    if (pos < end && !(this.text[pos] === '#' && pos > from)) decline();
  }

  private flow(at: number, lineEnd: number, depth: number): { node: Placed; end: number } {
    if (depth > MAX_DEPTH) decline();
    const isMap = this.text[at] === '{';
    const close = isMap ? '}' : ']';
    const items: Placed[] = [];
    const entries = new Map<string, { keyAt: number; node: Placed }>();
    const value: Record<string, unknown> = {};
    let pos = this.skipSpaces(at + 1, lineEnd);
    if (this.text[pos] === close) return { node: isMap ? { value, at, entries } : { value: [], at, items }, end: pos + 1 };
    for (;;) {
      const keyAt = pos;
      let name: string | undefined;
      if (isMap) {
        const key = this.key(pos);
        if (FORBIDDEN_KEYS.has(key.name) || entries.has(key.name) || this.text[key.end + 1] !== ' ') decline();
        name = key.name;
        pos = this.skipSpaces(key.end + 1, lineEnd);
      }
      const c = this.text[pos];
      let node: Placed;
      if (c === '{' || c === '[') {
        ({ node, end: pos } = this.flow(pos, lineEnd, depth + 1));
      } else if (c === '"' || c === "'") {
        const scalar = quotedScalar(this.text, pos, lineEnd);
        node = { value: scalar.value, at: pos };
        pos = scalar.end;
      } else {
        FLOW_PLAIN_END.lastIndex = pos;
        const end = FLOW_PLAIN_END.test(this.text) ? FLOW_PLAIN_END.lastIndex - 1 : this.text.length;
        node = { value: plainValue(this.text.slice(pos, end).trimEnd()), at: pos };
        pos = end;
      }
      if (name === undefined) items.push(node);
      else {
        value[name] = node.value;
        entries.set(name, { keyAt, node });
      }
      pos = this.skipSpaces(pos, lineEnd);
      if (this.text[pos] === close) {
        pos++;
        break;
      }
      if (this.text[pos] !== ',') decline();
      pos = this.skipSpaces(pos + 1, lineEnd);
      if (this.text[pos] === close || pos >= lineEnd) decline();
    }
    return { node: isMap ? { value, at, entries } : { value: items.map((i) => i.value), at, items }, end: pos };
  }

  private skipSpaces(pos: number, end: number): number {
    while (pos < end && this.text[pos] === ' ') pos++;
    return pos;
  }

  /** The offset after a quoted scalar on one line, or undefined. */
  private quotedEnd(at: number): number | undefined {
    try {
      return quotedScalar(this.text, at, this.lines[this.li]!.end).end;
    } catch (error) {
      if (error === DECLINE) return undefined;
      throw error;
    }
  }
}
