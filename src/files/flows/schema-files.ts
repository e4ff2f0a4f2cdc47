import { dirname, resolve } from 'node:path';
import type { Issue } from '../../core/errors.js';
import { compileUserSchema, type SchemaCheck } from '../../core/flows/checks/schema-check.js';
import { patternPointer, type FlowTestFile } from '../../core/flows/index.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { parseYaml } from '../../core/text/yaml-source.js';
import { readTextFile, type SourceFile } from '../source-files.js';

/** A JSON Schema file a flow test names: JSON or YAML text, as small as a flow test. */
const SCHEMA_FILE: TextFileKind = { maxBytes: 4 * 1024 * 1024, noun: 'a JSON Schema file', holds: 'JSON or YAML text' };

/**
 * Give every `schema: ./file.json` assertion of `flows` its compiled check. Each file (relative to
 * its flow file; JSON or YAML) is read and compiled once for the run, however many tests name it;
 * a file that cannot be read, parsed or compiled is an issue at the assertion that names it.
 */
export async function attachSchemaFiles(flows: readonly FlowTestFile[], sources: readonly SourceFile[]): Promise<Issue[]> {
  const absOf = new Map(sources.map((s) => [s.file, s.abs]));
  const loaded = new Map<string, { check: SchemaCheck } | { error: string }>();
  const issues: Issue[] = [];
  for (const flow of flows) {
    const base = dirname(absOf.get(flow.file) ?? resolve(flow.file));
    for (const test of flow.tests) {
      for (const a of test.expect.outputs) {
        if (a.operator !== 'schema' || typeof a.expected !== 'string') continue;
        const abs = resolve(base, a.expected);
        let schema = loaded.get(abs);
        if (schema === undefined) {
          schema = await loadSchemaFile(abs, a.expected);
          loaded.set(abs, schema);
        }
        if ('check' in schema) a.check = schema.check;
        else issues.push({ file: flow.file, line: a.line, col: a.col, message: `schema ${a.expected}: ${schema.error}` });
      }
    }
  }
  return issues;
}

async function loadSchemaFile(abs: string, shown: string): Promise<{ check: SchemaCheck } | { error: string }> {
  const text = await readTextFile({ abs, file: shown }, SCHEMA_FILE);
  if (!text.ok) return { error: text.issues[0]!.message };
  const parsed = parseYaml(text.value, { file: shown });
  if (!parsed.ok) {
    const i = parsed.issues[0]!;
    return { error: `line ${i.line}, column ${i.col}: ${i.message}` };
  }
  const value = parsed.value.value;
  if (!isObject(value)) return { error: 'a JSON Schema is an object' };
  const compiled = compileUserSchema(value);
  if (compiled.ok) return { check: compiled.check };
  if (compiled.at === undefined) return { error: compiled.error };
  // A refused pattern: where it is in the schema file.
  const at = patternPointer('', compiled.at);
  const { line, col } = parsed.value.locate(at.pointer, at.key === undefined ? undefined : { key: at.key });
  return { error: `line ${line}, column ${col}: ${compiled.error}` };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
