import { compileMatches } from '../../flows/checks/operators.js';
import type { UserRegex } from '../../text/linear-regex.js';
import type { PolicyPattern } from './types.js';

/**
 * A policy pattern as written: `/regex/flags` is a regular expression, anything else a phrase
 * found as it is (case and all). The regex is compiled by `compileMatches`, the one function
 * that turns a user's regex into something that runs, so a safer engine replaces it in one place.
 * Throws (with the engine's reason) on an invalid regex: the config loader locates it.
 */
export function compilePolicyPattern(source: string): PolicyPattern {
  const isRegex = /^\/.*\/[a-z]*$/s.test(source) && source.length >= 2;
  if (isRegex) return { source, regex: compiled(source), isRegex };
  return { source, regex: phrase(source), isRegex };
}

/** A pattern that is the whole value: `name: "^[a-z-]+$"` (slashes optional). */
export function compileWholePattern(source: string): PolicyPattern {
  return { source, regex: compiled(source), isRegex: true };
}

function compiled(source: string): UserRegex {
  const result = compileMatches(source);
  if (!result.ok) throw new Error(result.error);
  return result.regex;
}

/** A phrase found as it is written. */
function phrase(source: string): UserRegex {
  const find = (text: string, from = 0): { index: number; length: number } | undefined => {
    const index = text.indexOf(source, from);
    return index === -1 ? undefined : { index, length: source.length };
  };
  return { source, flags: '', test: (text) => text.includes(source), find, toString: () => JSON.stringify(source) };
}

/**
 * The matches of `pattern` in `text` (offsets and lengths), at most `max`. Searched with the
 * compiled pattern's own `exec` from after each match, so it works with whatever engine compiled it.
 */
export function matchesOf(pattern: PolicyPattern, text: string, max = 20): { index: number; length: number }[] {
  const found: { index: number; length: number }[] = [];
  let from = 0;
  while (from <= text.length && found.length < max) {
    const m = pattern.regex.find(text, from);
    if (!m) break;
    found.push(m);
    from = m.index + Math.max(1, m.length);
  }
  return found;
}
