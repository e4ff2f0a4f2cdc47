import { maxOf } from './lists.js';

/**
 * `text` as a markdown code block (no line break after the closing fence) whose fence no line of
 * the text can close: one backtick longer than the longest run in it, and at least three.
 */
export function codeBlock(text: string, lang = ''): string {
  const longest = maxOf(Array.from(text.matchAll(/`+/g), (m) => m[0].length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n+$/, '')}\n${fence}`;
}
