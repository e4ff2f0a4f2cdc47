import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { defaultConfig, parseConfig, type Config } from '../core/config.js';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import type { TextFileKind } from '../core/text-file.js';
import { loadSchema } from './package-root.js';
import { readTextFile } from './source-files.js';

export const DEFAULT_CONFIG_FILE = 'roleflow.config.yaml';

/** Config files are read like role files: bounded, and refused when binary. */
export const CONFIG_FILE: TextFileKind = { maxBytes: 1024 * 1024, noun: 'a config file', holds: 'YAML text' };

/**
 * Load `--config FILE` (which must exist) or `roleflow.config.yaml` in `cwd` when present.
 * Relative folders in the config are resolved against the config file's folder by the caller.
 */
export async function loadConfig(cwd: string, explicit: string | undefined): Promise<Config> {
  const file = explicit ?? DEFAULT_CONFIG_FILE;
  const abs = resolve(cwd, file);
  if (!(await exists(abs))) {
    if (explicit === undefined) return defaultConfig();
    throw new RoleflowError(`config file ${file} not found (given with --config)`);
  }
  const text = await readTextFile({ abs, file }, CONFIG_FILE);
  if (!text.ok) throw new InvalidFilesError(text.issues);
  const parsed = parseConfig(text.value, file, loadSchema('config'));
  if (!parsed.ok) throw new InvalidFilesError(parsed.issues);
  return parsed.value;
}

/** A path written in the config (`local.data`, `local.flows_config`), relative to the config file's folder. */
export function configRelative(cwd: string, config: Config, path: string): string {
  return resolve(cwd, config.file === undefined ? '.' : dirname(config.file), path);
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
