import fc from 'fast-check';
import { LineCounter, parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/core/text/yaml-source.js';

// parseYaml makes the syntax tree once, checks its depth, then composes it (yaml's parseDocument
// unrolled). It must read exactly what parseDocument reads: the same value, or the same errors at
// the same places.
function reference(text: string): { ok: true; value: unknown } | { ok: false; issues: { line: number; col: number; message: string }[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) {
    return { ok: false, issues: doc.errors.map((e) => ({ ...lineCounter.linePos(e.pos[0]), message: e.message.split('\n')[0]!.trim() })) };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (err) {
    // parseYaml's answer to a document that cannot become a value (an alias bomb, a missing anchor).
    return { ok: false, issues: [{ ...lineCounter.linePos(0), message: `YAML refused: ${(err as Error).message.split('\n')[0]!.trim()}` }] };
  }
}

function ours(text: string): ReturnType<typeof reference> {
  const r = parseYaml(text, { file: 'f.yaml' });
  if (r.ok) return { ok: true, value: r.value.value };
  return { ok: false, issues: r.issues.map(({ line, col, message }) => ({ line, col, message })) };
}

const noPrototypeKeys = (text: string): boolean => !/__proto__|constructor|prototype/.test(text);

/** YAML texts: documents as yaml writes them, then cut, spliced, doubled or sprinkled with syntax. */
const texts = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }).map((v) => stringify(v)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => stringify(v, { collectionStyle: 'flow' })),
    fc.nat(),
    fc.constantFrom('', '\n---\n', '\na: 1\na: 2\n', '\n  - x\n', ': :', '\n[1, 2\n', '\n"open', '\n&a [*a]\n', '\n? k\n', '\t', '\n...\n'),
    fc.constantFrom('cut', 'splice', 'as is'),
  )
  .map(([block, flow, at, piece, how]) => {
    const base = `${block}${flow}`;
    const i = base.length === 0 ? 0 : at % base.length;
    if (how === 'cut') return base.slice(0, i) + piece;
    if (how === 'splice') return base.slice(0, i) + piece + base.slice(i);
    return base + piece;
  })
  .filter(noPrototypeKeys);

describe('parseYaml reads what yaml parseDocument reads', () => {
  it('the same value or the same errors, for valid, broken and multi-document YAML', () => {
    fc.assert(
      fc.property(fc.oneof(texts, fc.string({ unit: fc.constantFrom('a', ':', ' ', '\n', '-', '[', ']', '{', '}', ',', '"', "'", '#', '&', '*', '!', '|', '>', '?') }).filter(noPrototypeKeys)), (text) => {
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('the same for the repository files', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    for (const dir of ['flows', 'examples']) {
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
        const text = readFileSync(`${dir}/${f}`, 'utf8');
        expect(ours(text)).toEqual(reference(text));
      }
    }
  });
});
