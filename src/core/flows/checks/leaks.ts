/**
 * Prompt-leak detection: does a text contain a verbatim run of a Role's content of at least
 * `minChars` characters, once both are in one normal form (leak-normal.ts: entities decoded,
 * NFKC, case folded, invisible characters dropped, whitespace runs one space)? One rolling hash
 * (Rabin–Karp) of every `minChars`-long window of the Roles is indexed once; an output is then
 * scanned in one pass, each window's hash looked up, so the cost is linear in the output's size.
 */

import type { Leak, LeakFinder } from '../types.js';
import { normalise } from './leak-normal.js';

export type { Leak } from '../types.js';
export { normalise } from './leak-normal.js';

/** A Role's text as checked, and where its content starts in its file (1-based line). */
export interface RoleText {
  name: string;
  file: string;
  content: string;
  firstLine: number;
  /**
   * When `content` is not the file's text (variables rendered): the content as written, and for
   * each character of `content` its index there, so a leak names the line of the file.
   */
  written?: { content: string; origin: readonly number[] };
}

export const DEFAULT_MIN_CHARS = 40;

const MOD = 2_147_483_647;
const BASE = 257;

interface NormalRole {
  role: RoleText;
  text: string;
  /** For each character of `text`, its index in `role.content`. */
  origin: number[];
}

export class LeakIndex implements LeakFinder {
  private readonly roles: NormalRole[];
  /** Window hash → [role index, start] pairs, flattened. */
  private readonly windows = new Map<number, number[]>();
  private readonly high: number;

  constructor(
    roles: readonly RoleText[],
    readonly minChars: number,
  ) {
    this.roles = roles.map((role) => ({ role, ...normalise(role.content) }));
    this.high = powMod(BASE, minChars - 1);
    this.roles.forEach((r, ri) => {
      rollingHashes(r.text, minChars, this.high, (start, h) => {
        const at = this.windows.get(h);
        if (at) at.push(ri, start);
        else this.windows.set(h, [ri, start]);
      });
    });
  }

  /** The first leak in `text` (extended to its whole verbatim run), or undefined. */
  find(text: string): Leak | undefined {
    const { text: norm } = normalise(text);
    let leak: Leak | undefined;
    rollingHashes(norm, this.minChars, this.high, (start, h) => {
      const candidates = this.windows.get(h);
      if (!candidates) return true;
      for (let i = 0; i < candidates.length; i += 2) {
        const r = this.roles[candidates[i]!]!;
        const at = candidates[i + 1]!;
        if (norm.startsWith(r.text.slice(at, at + this.minChars), start)) {
          leak = this.extend(r, at, norm, start);
          return false;
        }
      }
      return true;
    });
    return leak;
  }

  private extend(r: NormalRole, at: number, norm: string, start: number): Leak {
    let end = this.minChars;
    while (at + end < r.text.length && start + end < norm.length && r.text[at + end] === norm[start + end]) end += 1;
    // The line of its first word: a run may start at the line break before it.
    const index = r.origin[r.text[at] === ' ' && end > 1 ? at + 1 : at]!;
    const { written } = r.role;
    const origin = written ? written.origin[index]! : index;
    const content = written ? written.content : r.role.content;
    let line = r.role.firstLine;
    for (let i = 0; i < origin; i++) if (content.charCodeAt(i) === 10) line += 1;
    const from = r.origin[at]!;
    const to = at + end < r.origin.length ? r.origin[at + end]! : r.role.content.length;
    return { role: r.role.name, file: r.role.file, line, text: r.role.content.slice(from, to).replace(/\s+/g, ' ') };
  }
}

/** A leaked run for a message: its start and end, at most `max` characters. */
export function excerpt(text: string, max = 60): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.6);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** Calls `visit(start, hash)` for every `n`-long window of `text`, in order; `false` stops. */
function rollingHashes(text: string, n: number, high: number, visit: (start: number, hash: number) => boolean | void): void {
  if (n <= 0 || text.length < n) return;
  let h = 0;
  for (let i = 0; i < n; i++) h = (h * BASE + text.charCodeAt(i)) % MOD;
  if (visit(0, h) === false) return;
  for (let i = n; i < text.length; i++) {
    h = (h - ((text.charCodeAt(i - n) * high) % MOD) + MOD) % MOD;
    h = (h * BASE + text.charCodeAt(i)) % MOD;
    if (visit(i - n + 1, h) === false) return;
  }
}

function powMod(base: number, exp: number): number {
  let r = 1;
  for (let i = 0; i < exp; i++) r = (r * base) % MOD;
  return r;
}
