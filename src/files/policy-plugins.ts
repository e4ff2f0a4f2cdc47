import { pathToFileURL } from 'node:url';
import type { Config } from '../core/config/config.js';
import { RoleflowError } from '../core/errors.js';
import type { PolicyPlugin } from '../core/config/policy/index.js';
import { configRelative } from './config-file.js';

/** A plugin of `policy.plugins`, loaded: its name as written, and its default export. */
export interface LoadedPlugin {
  name: string;
  run: PolicyPlugin;
}

/**
 * The modules `policy.plugins` names (relative to the config's folder), imported; one that cannot
 * be, or whose default export is not a function, stops the command with one line naming it.
 */
export async function loadPolicyPlugins(cwd: string, config: Config): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const name of config.policy.plugins) {
    const abs = configRelative(cwd, config, name);
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(abs).href)) as { default?: unknown };
    } catch (error) {
      throw new RoleflowError(`policy plugin ${name}: cannot be loaded: ${((error as Error).message ?? String(error)).split('\n')[0]}`, 'config');
    }
    if (typeof module.default !== 'function') throw new RoleflowError(`policy plugin ${name}: its default export is not a function (export default function (input) { return [] })`, 'config');
    loaded.push({ name, run: module.default as PolicyPlugin });
  }
  return loaded;
}

/** A plugin called: what it returned, or one line naming it when it throws. */
export async function callPlugin(plugin: LoadedPlugin, input: Parameters<PolicyPlugin>[0]): Promise<unknown> {
  try {
    return await plugin.run(input);
  } catch (error) {
    throw new RoleflowError(`policy plugin ${plugin.name} failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
}
