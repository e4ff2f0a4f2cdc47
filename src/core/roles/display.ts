/**
 * Names, ids and contents come from files and from the tenant: printed raw, a control character
 * could move the cursor or recolour a terminal, a newline could forge an output line. Everything
 * a plan shows goes through these, which escape as `safe-text.ts` does.
 */
import { escapeControls, hasUnsafe } from '../text/safe-text.js';

/** A string in double quotes, with every unsafe character escaped (JSON-style). */
export function quote(text: string): string {
  if (!text.includes('"') && !text.includes('\\') && !hasUnsafe(text)) return `"${text}"`;
  return `"${escapeControls(text.replace(/["\\]/g, '\\$&'))}"`;
}

/** A name or id bare when it is plainly printable, quoted otherwise. */
export function showName(text: string): string {
  return text !== '' && !/[\s"\\]/.test(text) && !hasUnsafe(text) ? text : quote(text);
}

/** One line of a diff or of content: tabs kept, other unsafe characters escaped. */
export function printableLine(line: string): string {
  return line.includes('\t') ? line.split('\t').map(escapeControls).join('\t') : escapeControls(line);
}

/**
 * A whole number with thousands separators, exactly as `n.toLocaleString('en-US')` writes it
 * (`12,345`), without going through ICU, which costs microseconds a call: plans call this per Role.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return n.toLocaleString('en-US');
  const digits = String(n);
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** `1 delete`, `2 deletes`, `1,200 Roles`: a count and its noun, singular for one. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${thousands(n)} ${n === 1 ? noun : nouns}`;
}

/** A word for a shell command line: bare when plainly safe, else in single quotes (control characters escaped). */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${escapeControls(text).replace(/'/g, `'\\''`)}'`;
}
