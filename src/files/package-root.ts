import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder: the nearest ancestor of this module holding roleflow's package.json.
 * Found by walking up, so it holds in every layout the code runs from (src/ under vitest, the dist/
 * bundle, the Action's bundle in action/dist/); it holds `schemas/` and `emulator-flows.yaml`.
 */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'roleflow') {
      return dir.endsWith('/') ? dir : `${dir}/`;
    }
    if (dirname(dir) === dir) throw new Error(`roleflow: cannot find the package root above ${start}`);
  }
}

/** roleflow's own version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

const schemas = new Map<string, object>();

/** A JSON Schema from `schemas/`, read once. */
export function loadSchema(name: 'role' | 'plan' | 'flow-test' | 'config' | 'report' | 'preview' | 'lint' | 'judge-cases' | 'history' | 'drift'): object {
  let schema = schemas.get(name);
  if (!schema) {
    schema = JSON.parse(readFileSync(`${packageRoot}schemas/${name}.schema.json`, 'utf8')) as object;
    schemas.set(name, schema);
  }
  return schema;
}
