import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { ExitCode } from './core/exit-codes.js';
import { cacheFolder, setRunningBuild } from './files/cache-folder.js';

/**
 * Runs the CLI bundle (CommonJS) through a V8 code cache, as Node 22's module compile cache does
 * for modules: the first run of a command compiles what it uses and saves the compiled code on
 * exit; later runs of that command load it instead of compiling again, about a third of
 * `roleflow validate`'s time. V8 refuses a cache made from other source or by another V8, and the
 * script is compiled as usual then, so a stale, foreign or damaged cache costs one compile, never
 * a wrong answer. The cache is never required: a folder that cannot be made or written is
 * skipped silently, and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export interface CodeCacheRun {
  /** The bundle's path. */
  bundle: string;
  /**
   * Code bundled on its own (files next to the bundle), read only when first required: most
   * commands never need it. With `exports`, the names it exports, it is read only when one of
   * them is first read: `require` gives a stand-in with a getter for each.
   */
  vendored: Readonly<Record<string, { file: string; exports?: readonly string[] }>>;
  /** Names this build (a hash of it): a new build never reads an older build's cache. */
  build: string;
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
}

export function runWithCodeCache({ bundle, vendored, build, argv, env }: CodeCacheRun): void {
  const dir = cacheFolder(env);
  // The bundle keys what it caches (parsed flow test files) by the build too.
  setRunningBuild(build);
  const prefix = `${build}-${process.version}-${process.arch}-${commandOf(argv)}`;
  const cacheFile = (script: string): string | undefined => (dir === undefined ? undefined : join(dir, `${prefix}-${basename(script)}.v8`));
  // Every script of this run that needs its cache (re)written: written at exit, all at once.
  const pending = new Map<string, Script>();
  const save = (file: string, script: Script): void => {
    if (pending.size === 0) process.once('exit', (code) => saveCaches(dir!, pending, build, code));
    pending.set(file, script);
  };
  const plain = createRequire(bundle);
  const loaded = new Map<string, unknown>();
  const load = (id: string, file: string): unknown => {
    if (!loaded.has(id)) loaded.set(id, runScript(join(dirname(bundle), file), require, cacheFile, save));
    return loaded.get(id);
  };
  const standIns = new Map<string, object>();
  const require = Object.assign((id: string): unknown => {
    const entry = Object.hasOwn(vendored, id) ? vendored[id] : undefined;
    if (entry === undefined) return plain(id);
    if (entry.exports === undefined) return load(id, entry.file);
    let standIn = standIns.get(id);
    if (standIn === undefined) standIns.set(id, (standIn = standInFor(entry.exports, () => load(id, entry.file) as Record<string, unknown>)));
    return standIn;
  }, plain);
  runScript(bundle, require, cacheFile, save);
}

/**
 * An object with a getter for each name a module exports, which loads it on first use: bundled
 * code reads an import as a property of what `require` gave (`import_yaml.parse`), when it uses
 * it, so a module that imports yaml costs nothing until it parses.
 */
function standInFor(names: readonly string[], load: () => Record<string, unknown>): object {
  const standIn = {};
  for (const name of names) Object.defineProperty(standIn, name, { enumerable: true, get: () => load()[name] });
  return standIn;
}

/** Runs a bundle (a CommonJS module inside its wrapper function) with `require`, from its cache when there is a good one; its `module.exports`. */
function runScript(path: string, require: NodeJS.Require, cacheFile: (path: string) => string | undefined, save: (file: string, script: Script) => void): unknown {
  // The build makes the bundles pure ASCII: read as latin1, without decoding UTF-8.
  const source = readFileSync(path, 'latin1');
  const file = cacheFile(path);
  const cachedData = file === undefined ? undefined : readIfThere(file);
  // The build wrote each bundle as Node's CommonJS wrapper function, ready to compile as it is: no
  // copy of the source is made here. No `import()` may be left in them (the build checks): Node 20
  // cannot run one in a script compiled from a code cache.
  const script = new Script(source, { filename: path, cachedData });
  if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) save(file, script);
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, path, dirname(path));
  return module.exports;
}

/**
 * Each command compiles different code: one cache per command word (`validate`, `plan`…, `version`
 * for `--version`), and another for its `--help`, which runs none of the command's code.
 */
function commandOf(argv: readonly string[]): string {
  const word = argv[0]?.replace(/^--?/, '');
  const command = word !== undefined && /^[a-z]{1,16}$/.test(word) && word !== 'h' ? word : 'roleflow';
  return command !== 'help' && argv.some((a) => a === '--help' || a === '-h') ? `${command}-help` : command;
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Another build's files (an older roleflow, another install) go once unused this long… */
const STALE_MS = 7 * 24 * 3600 * 1000;
/** …or once this many builds newer than theirs have written here (a roleflow developer builds often). */
const OTHER_BUILDS_KEPT = 2;

/**
 * At exit, each script's cache holds every function the run compiled, not only the top level. A
 * run that failed (exit 1: bad input, an unreachable tenant) or was interrupted (130) stopped
 * early, and a cache V8 accepts is never written again: the next run makes it instead. Each file
 * is written whole under a temporary name, then renamed: a concurrent run reads the old file or
 * the new one. Then the folder is tidied, once.
 */
function saveCaches(dir: string, scripts: ReadonlyMap<string, Script>, build: string, code: number): void {
  if (code === ExitCode.Error || code === ExitCode.Interrupted) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [file, script] of scripts) {
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      renameSync(temp, file);
    }
    tidy(dir, build);
  } catch {
    // No cache this time; the command's own outcome is what counts.
  }
}

/**
 * Temporary files left by a killed run go once stale, and other builds' files once stale or once
 * they are not among the most recently written other builds.
 */
function tidy(dir: string, build: string): void {
  const now = Date.now();
  const others = new Map<string, { paths: string[]; newest: number }>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    // Folders hold the bundle's own caches (parsed/), which it tidies itself.
    if (!stat.isFile()) continue;
    const mtime = stat.mtimeMs;
    if (name.endsWith('.tmp') || name.startsWith(`${build}-`)) {
      if (name.endsWith('.tmp') && now - mtime > STALE_MS) rmSync(path, { force: true });
      continue;
    }
    const otherBuild = name.split('-')[0]!;
    const other = others.get(otherBuild) ?? { paths: [], newest: 0 };
    other.paths.push(path);
    other.newest = Math.max(other.newest, mtime);
    others.set(otherBuild, other);
  }
  const byRecency = [...others.values()].sort((a, b) => b.newest - a.newest);
  byRecency.forEach((other, rank) => {
    if (rank >= OTHER_BUILDS_KEPT || now - other.newest > STALE_MS) for (const path of other.paths) rmSync(path, { force: true });
  });
}
