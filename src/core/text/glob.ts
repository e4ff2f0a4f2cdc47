/**
 * Glob matching for names (role names, flow service names), not paths: `*` matches any run of
 * characters (slashes included, since names are not paths), `?` matches exactly one, and
 * everything else is literal. A pattern without `*` or `?` is an exact name.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.|+()[\]{}/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

export function matchesGlob(name: string, glob: string): boolean {
  return globToRegExp(glob).test(name);
}
