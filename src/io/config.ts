import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { defaultConfig, parseConfig, type Config } from '../core/config.js';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import { loadSchema } from './package-root.js';

export const DEFAULT_CONFIG_FILE = 'roleflow.config.yaml';

/**
 * Load `--config FILE` (which must exist) or `roleflow.config.yaml` in `cwd` when present.
 * Relative folders in the config are resolved against the config file's folder by the caller.
 */
export async function loadConfig(cwd: string, explicit: string | undefined): Promise<Config> {
  const file = explicit ?? DEFAULT_CONFIG_FILE;
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    if (explicit === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig();
    throw new RoleflowError(`${file}: cannot read config: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const parsed = parseConfig(text, file, loadSchema('config'));
  if (!parsed.ok) throw new InvalidFilesError(parsed.issues);
  return parsed.value;
}

/** A path written in the config (`local.data`, `local.flows_config`), relative to the config file's folder. */
export function configRelative(cwd: string, config: Config, path: string): string {
  return resolve(cwd, config.file === undefined ? '.' : dirname(config.file), path);
}
