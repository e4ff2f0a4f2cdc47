import { describe, expect, it } from 'vitest';
import { parseYaml, YAML_LIMITS } from '../../src/core/text/yaml-source.js';

const flow = (n: number): string => `a: ${'['.repeat(n)}${']'.repeat(n)}\n`;
const block = (n: number): string => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';

describe('YAML nesting depth', () => {
  it(`reads ${YAML_LIMITS.maxDepth} levels`, () => {
    // The top-level map is one level.
    expect(parseYaml(flow(YAML_LIMITS.maxDepth - 1), { file: 'f.yaml' }).ok).toBe(true);
    expect(parseYaml(block(YAML_LIMITS.maxDepth), { file: 'f.yaml' }).ok).toBe(true);
  });

  for (const [kind, make, at, sizes] of [
    ['flow', flow, { line: 1, col: 4 + YAML_LIMITS.maxDepth - 1 }, [YAML_LIMITS.maxDepth + 1, 1000, 20_000]],
    ['block', block, { line: YAML_LIMITS.maxDepth + 1, col: YAML_LIMITS.maxDepth + 1 }, [YAML_LIMITS.maxDepth + 1, 1000, 2000]],
  ] as const) {
    for (const n of sizes) {
      it(`refuses ${n} levels of ${kind} nesting as one located issue, not a stack overflow`, () => {
        const r = parseYaml(make(n), { file: 'f.yaml', lineOffset: 1 });
        expect(r).toEqual({
          ok: false,
          issues: [{ file: 'f.yaml', line: at.line + 1, col: at.col, message: `nested more than ${YAML_LIMITS.maxDepth} levels deep (the most roleflow reads)` }],
        });
      });
    }
  }
});
