import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheFolder, runningBuild } from './cache-folder.js';

/**
 * Files parsed by an earlier run, kept in roleflow's cache folder (`parsed/`, one entry per file
 * path): a file whose text is exactly the text an entry was made from, by the same build, is not
 * parsed again. Each entry holds that text and is used only when the file's text equals it, so a
 * run never reads anything but what parsing the file would give; what cannot be read (a missing,
 * damaged or foreign entry) is a miss, and the file is parsed as if there were no cache. Entries
 * are written whole under a temporary name and renamed, so a concurrent run reads the old one or
 * the new one; one not rewritten for a week goes, when a run next writes an entry.
 */
export class ParseCache {
  private made = false;
  private wrote = false;

  private constructor(
    private readonly dir: string,
    private readonly build: string,
  ) {}

  /** The cache of the running CLI; none when run from src/ (tests), or where there is no cache folder. */
  static open(env: NodeJS.ProcessEnv): ParseCache | undefined {
    const build = runningBuild();
    const dir = build === undefined ? undefined : cacheFolder(env);
    return dir === undefined || build === undefined ? undefined : new ParseCache(join(dir, 'parsed'), build);
  }

  /** The value stored for `kind` of the file at `abs` (shown as `file`) when it was made from `text`. */
  lookup({ kind, abs, file, text }: CacheKey): unknown {
    let entry: unknown;
    try {
      entry = JSON.parse(readFileSync(this.entryPath(kind, abs), 'utf8'));
    } catch {
      return undefined;
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { build, kind: entryKind, file: entryFile, text: entryText, value } = entry as Record<string, unknown>;
    return build === this.build && entryKind === kind && entryFile === file && entryText === text ? value : undefined;
  }

  /** Keep `valueJson` (the JSON of what parsing `text` gave) for the next run. Never fails the run. */
  store({ kind, abs, file, text }: CacheKey, valueJson: string): void {
    try {
      if (!this.made) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
      const path = this.entryPath(kind, abs);
      const head = JSON.stringify({ build: this.build, kind, file, text });
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, `${head.slice(0, -1)},"value":${valueJson}}`, { mode: 0o600 });
      renameSync(temp, path);
      this.wrote = true;
    } catch {
      // No entry this time: the next run parses the file again.
    }
  }

  /**
   * After a run that wrote entries: those (and temporary files) not rewritten for a week go, and
   * the oldest beyond `MAX_ENTRIES` (a test suite run from many temporary folders makes many).
   */
  tidy(now = Date.now()): void {
    if (!this.wrote) return;
    try {
      const kept: { path: string; at: number }[] = [];
      for (const name of readdirSync(this.dir)) {
        const path = join(this.dir, name);
        const at = statSync(path).mtimeMs;
        if (now - at > STALE_MS) rmSync(path, { force: true });
        else kept.push({ path, at });
      }
      kept.sort((a, b) => b.at - a.at);
      for (const { path } of kept.slice(MAX_ENTRIES)) rmSync(path, { force: true });
    } catch {
      // Tidied another time.
    }
  }

  private entryPath(kind: string, abs: string): string {
    return join(this.dir, `${entryName(`${kind}\0${abs}`)}.json`);
  }
}

/** Where an entry comes from: its kind, the file (`abs`, shown as `file`) and the text it was made from. */
export interface CacheKey {
  kind: string;
  abs: string;
  file: string;
  text: string;
}

/**
 * What `make` gives for `key.text`, taken from the entry made from this very text when there is
 * one (`revive` gives it back; a value it refuses or throws on is a miss), else made and, when
 * `keep` gives its exact JSON, stored for the next run. Without a cache, `make` alone.
 */
export function throughCache<T>(
  cache: ParseCache | undefined,
  key: CacheKey,
  ways: { make: () => T; revive: (value: unknown) => T | undefined; keep: (made: T) => string | undefined },
): T {
  if (cache === undefined) return ways.make();
  const cached = cache.lookup(key);
  const revived = cached === undefined ? undefined : reviveOrNothing(ways.revive, cached);
  if (revived !== undefined) return revived;
  const made = ways.make();
  const json = ways.keep(made);
  if (json !== undefined) cache.store(key, json);
  return made;
}

/** An entry that does not revive (damaged, or made by hand) is a miss. */
function reviveOrNothing<T>(revive: (value: unknown) => T | undefined, value: unknown): T | undefined {
  try {
    return revive(value);
  } catch {
    return undefined;
  }
}

/**
 * An entry's file name: the key's 32-bit FNV-1a hash from two offset bases, 16 hex digits. It only
 * spreads the entries: an entry says which file and text it was made from, so two keys of one name
 * cost a miss, never a wrong value. (A hash of node:crypto would do too, but loading that module
 * and making one hash is ~16M instructions, a tenth of what `validate` adds to Node's own start.)
 */
export function entryName(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x9dc5811c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

const STALE_MS = 7 * 24 * 3600 * 1000;
const MAX_ENTRIES = 1000;
