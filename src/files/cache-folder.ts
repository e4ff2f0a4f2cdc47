import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * roleflow's cache folder, shared by the compile cache (code-cache.ts, run by bin.cjs) and the
 * parsed-files cache (parse-cache.ts, in the bundle): `$XDG_CACHE_HOME/roleflow`, else
 * `~/.cache/roleflow`; none when NODE_DISABLE_COMPILE_CACHE is set, without a home folder, or when
 * the folder is not this user's own (`ownFolder`).
 */
export function cacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  return ownFolder(cacheDir(env));
}

/**
 * The build of the running CLI (a hash of its bundles), which bin.cjs hands to the bundle it runs:
 * a cache entry made by another build is never used. Undefined when the code runs from src/
 * (tests), where nothing is cached.
 */
const BUILD = Symbol.for('roleflow.build');

export function setRunningBuild(build: string): void {
  (globalThis as Record<symbol, unknown>)[BUILD] = build;
}

export function runningBuild(): string | undefined {
  const build = (globalThis as Record<symbol, unknown>)[BUILD];
  return typeof build === 'string' ? build : undefined;
}

function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env['NODE_DISABLE_COMPILE_CACHE']) return undefined;
  if (env['XDG_CACHE_HOME']) return join(env['XDG_CACHE_HOME'], 'roleflow');
  const home = safeHome();
  return home ? join(home, '.cache', 'roleflow') : undefined;
}

function safeHome(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * The folder when only this user can write it (compiled code is code, and a cached flow test says
 * what is sent to the tenant: never use what someone else could have put there), or when it does
 * not exist yet (it is made 0700); else none, neither read nor written.
 */
function ownFolder(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    const stat = statSync(dir);
    const uid = process.getuid?.();
    return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0 ? dir : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? dir : undefined;
  }
}
