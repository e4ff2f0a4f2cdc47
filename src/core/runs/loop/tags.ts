/** `--tag` and `--exclude-tag` (each repeatable). */
export interface TagFilter {
  /** A test runs when it has any of these (none given: every test). */
  include: readonly string[];
  /** A test with any of these does not run, whatever `include` says. */
  exclude: readonly string[];
}

/** Whether a test with `tags` (its file's and its own) is selected by `filter`. */
export function tagsSelect(tags: readonly string[] | undefined, filter: TagFilter): boolean {
  const has = (tag: string) => tags?.includes(tag) === true;
  if (filter.exclude.some(has)) return false;
  return filter.include.length === 0 || filter.include.some(has);
}

/** A tag as `--tag` takes it: the same words a file's `tags:` may hold (see the flow test schema). */
export const TAG_PATTERN = /^[^\s,]+$/;

/** The tags of `--tag`/`--exclude-tag` that no file could hold, as one line; undefined when all can. */
export function badTagFlag(flag: string, tags: readonly string[]): string | undefined {
  const bad = tags.find((t) => !TAG_PATTERN.test(t));
  return bad === undefined ? undefined : `invalid ${flag} ${JSON.stringify(bad)}: a tag is one word (no space or comma); give ${flag} once per tag`;
}
