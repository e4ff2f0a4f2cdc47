/** Whether a name matches: what a glob compiles to. */
export interface NameMatcher {
  test(name: string): boolean;
}

/**
 * Glob matching for names (role names, flow service names), not paths: `*` matches any run of
 * characters (slashes included, since names are not paths), `?` matches exactly one, and
 * everything else is literal. A pattern without `*` or `?` is an exact name. Matched by the
 * classic wildcard walk, at most (name × pattern) steps: as a regular expression, `a*a*a*b`
 * against a long name from a tenant would backtrack polynomially in the number of stars.
 */
export function compileGlob(glob: string): NameMatcher {
  const pattern = Array.from(glob);
  if (!pattern.includes('*') && !pattern.includes('?')) return { test: (name) => name === glob };
  return { test: (name) => wildcardMatch(pattern, Array.from(name)) };
}

export function matchesGlob(name: string, glob: string): boolean {
  return compileGlob(glob).test(name);
}

/** On a mismatch, the last `*` takes one more character; nothing before it is tried again. */
function wildcardMatch(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || (pattern[p] !== '*' && pattern[p] === name[n]))) {
      p += 1;
      n += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      p += 1;
      resume = n;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
