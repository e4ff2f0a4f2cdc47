import { dirname, resolve } from 'node:path';
import type { Issue } from '../../core/errors.js';
import type { FlowTestFile } from '../../core/flows/index.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { readTextFile, type SourceFile } from '../source-files.js';

/** The text a `similar: {to: {file}}` compares with. */
const SIMILAR_FILE: TextFileKind = { maxBytes: 4 * 1024 * 1024, noun: 'a text to compare with', holds: 'text' };

/**
 * Give every `similar: {to: {file: PATH}}` assertion of `flows` the file's text (relative to its
 * flow file; one final line break dropped, as an editor adds it); an unreadable file is an issue
 * at the assertion.
 */
export async function attachSimilarFiles(flows: readonly FlowTestFile[], sources: readonly SourceFile[]): Promise<Issue[]> {
  const absOf = new Map(sources.map((s) => [s.file, s.abs]));
  const issues: Issue[] = [];
  for (const flow of flows) {
    const base = dirname(absOf.get(flow.file) ?? resolve(flow.file));
    for (const a of flow.tests.flatMap((t) => t.expect.outputs)) {
      if (a.similar?.file === undefined) continue;
      const text = await readTextFile({ abs: resolve(base, a.similar.file), file: a.similar.file }, SIMILAR_FILE);
      if (text.ok) a.similar.to = text.value.replace(/\r?\n$/, '');
      else issues.push({ file: flow.file, line: a.line, col: a.col, message: `similar ${a.similar.file}: ${text.issues[0]!.message}` });
    }
  }
  return issues;
}
