import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSchema } from '../../src/core/text/schema.js';
import { repoRoot } from './cli.js';

/** The schemas of what commands print (or write) for scripts; the rest of schemas/ describe files users write. */
export const OUTPUT_SCHEMAS = ['apply', 'compare', 'drift', 'history', 'init', 'judges', 'lint', 'plan', 'preview', 'pull', 'report', 'serve', 'validate'] as const;
export type OutputSchema = (typeof OUTPUT_SCHEMAS)[number];

export function schemaFiles(): string[] {
  return readdirSync(join(repoRoot, 'schemas')).filter((f) => f.endsWith('.schema.json'));
}

const loaded = new Map<OutputSchema, Record<string, unknown>>();

export function loadOutputSchema(name: OutputSchema): Record<string, unknown> {
  let schema = loaded.get(name);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
    loaded.set(name, schema);
  }
  return schema;
}

/** What `schemas/NAME.schema.json` finds wrong with `doc`: '' when it is valid. */
export function outputProblems(name: OutputSchema, doc: unknown): string {
  const check = compileSchema(loadOutputSchema(name));
  return check(doc) ? '' : JSON.stringify(check.errors);
}
