import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder. This module sits two levels down in every layout it runs from
 * (src/io under vitest, dist/io when built, action/dist when bundled), so `../../` is the root
 * that holds `schemas/` and `emulator-flows.yaml`.
 */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

const schemas = new Map<string, object>();

/** A JSON Schema from `schemas/`, read once. */
export function loadSchema(name: 'role' | 'plan' | 'flow-test' | 'config' | 'report'): object {
  let schema = schemas.get(name);
  if (!schema) {
    schema = JSON.parse(readFileSync(`${packageRoot}schemas/${name}.schema.json`, 'utf8')) as object;
    schemas.set(name, schema);
  }
  return schema;
}
