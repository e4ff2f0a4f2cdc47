import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { defaultConfig, parseConfig, type Config } from '../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import type { TextFileKind } from '../core/text/text-file.js';
import { loadSchema, packageRoot } from './package-root.js';
import { displayPath, readTextFile, type SourceFile } from './source-files.js';

export const DEFAULT_CONFIG_FILE = 'roleflow.config.yaml';

/** Config files are read like role files: bounded, and refused when binary. */
export const CONFIG_FILE: TextFileKind = { maxBytes: 1024 * 1024, noun: 'a config file', holds: 'YAML text' };

/**
 * The config a command uses: `--config FILE` (which must exist), else `ROLEFLOW_CONFIG` (which
 * must exist too), else `roleflow.config.yaml` in `cwd` or the nearest folder above it, as git
 * finds its repository — the search stops at the repository root (a folder holding `.git`), the
 * home folder and the file system root. None found means the defaults. `Config.file` is the path
 * from `cwd` (`../roleflow.config.yaml`); folders written in the config are relative to its folder.
 */
export async function loadConfig(cwd: string, explicit: string | undefined, env: Record<string, string | undefined> = {}): Promise<Config> {
  const named = explicit ?? nonEmpty(env['ROLEFLOW_CONFIG']);
  let file: string;
  if (named !== undefined) {
    if (!(await exists(resolve(cwd, named)))) {
      throw new RoleflowError(`config file ${named} not found (given with ${explicit !== undefined ? '--config' : 'ROLEFLOW_CONFIG'})`, 'config');
    }
    file = named;
  } else {
    const found = await findConfig(cwd, env['HOME']);
    if (found === undefined) return defaultConfig();
    file = relative(cwd, found).split(sep).join('/') || DEFAULT_CONFIG_FILE;
  }
  const abs = resolve(cwd, file);
  const text = await readTextFile({ abs, file }, CONFIG_FILE);
  if (!text.ok) throw new InvalidFilesError(text.issues);
  const parsed = parseConfig(text.value, file, loadSchema('config'));
  if (!parsed.ok) throw new InvalidFilesError(parsed.issues);
  return parsed.value;
}

/** `roleflow.config.yaml` in `cwd` or the nearest folder above it, within the repository. */
async function findConfig(cwd: string, home: string | undefined): Promise<string | undefined> {
  const top = home === undefined || home === '' ? undefined : resolve(home);
  for (let dir = resolve(cwd); ; ) {
    const candidate = join(dir, DEFAULT_CONFIG_FILE);
    if (await exists(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir || dir === top || (await exists(join(dir, '.git')))) return undefined;
    dir = parent;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A path written in the config (`local.data`, `local.flows_config`), relative to the config file's folder. */
export function configRelative(cwd: string, config: Config, path: string): string {
  return resolve(cwd, config.file === undefined ? '.' : dirname(config.file), path);
}

/** The flows file of the embedded tenant: the config's `local.flows_config` (`own`), else the built-in one. */
export interface EmbeddedFlowsFile extends SourceFile {
  own: boolean;
}

/** Which flows file the embedded tenant of this config runs (as `openTenant` starts it). */
export function embeddedFlowsOf(cwd: string, config: Config): EmbeddedFlowsFile {
  const own = config.local.flowsConfig;
  const abs = own === undefined ? join(packageRoot, 'emulator-flows.yaml') : configRelative(cwd, config, own);
  return { abs, file: displayPath(cwd, abs), own: own !== undefined };
}

/** Said once by a command that runs the embedded tenant with a flows file of the config's own (`file`, as shown). */
export function ownFlowsNote(file: string): string {
  return `note: the embedded tenant runs the flows of ${file} (local.flows_config), in place of the built-in ones`;
}

/** Whether anything is at `abs` (a folder is reported by the read, as for any file). */
async function exists(abs: string): Promise<boolean> {
  try {
    await stat(abs);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    return true;
  }
}
